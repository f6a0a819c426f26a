// Step 2: the recipients file, how it was read (a CSV's encoding and separator, or a workbook's
// sheet, chosen here when several hold rows), the column mapping, and what validation found, before
// anything is stored.
import type { TemplateFormat } from '../../../../shared/domain/file-formats.ts';
import { plural } from '../../../../shared/domain/plural.ts';
import { figureFor } from '../../../../shared/domain/repeat-figures.ts';
import { sheetRowsRead } from '../../../../shared/domain/sheet-words.ts';
import type { RepeatChoices as Choices } from '../../../../shared/domain/skips.ts';
import { Message } from '../../components/Message.tsx';
import { Totals } from '../../components/Money.tsx';
import { Stat } from '../../components/Stat.tsx';
import { base64ToBytes } from '../../lib/base64.ts';
import { downloadBytes } from '../../lib/download.ts';
import { formatPrice } from '../../lib/money-display.ts';
import { productLabel, productNameFor } from '../../lib/products.ts';
import { useStores, useWizard } from '../../stores/hooks.ts';
import { selectedProduct, type Delimiter, type Preview } from '../../stores/wizard-store.ts';
import { defaultMessageProblem } from './default-message.ts';
import { importBlocker } from './import-blocker.ts';
import { FileDrop } from './FileDrop.tsx';
import { MappingForm } from './MappingForm.tsx';
import { ProductTotals } from './ProductTotals.tsx';
import { RepeatChoices } from './RepeatChoices.tsx';
import { SaveProgress } from './SaveProgress.tsx';
import { SheetChooser } from './SheetChooser.tsx';

const DELIMITERS: ReadonlyArray<{ value: Delimiter; label: string }> = [
  { value: ',', label: 'Comma ( , )' },
  { value: ';', label: 'Semicolon ( ; )' },
  { value: '\t', label: 'Tab' },
];

const MAX_PROBLEMS = 20;

const TEMPLATE_TYPES: Readonly<Record<TemplateFormat, string>> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv;charset=utf-8',
};

/** The preview's figure for `repeats`: the valid rows the draft keeps to send, those a repeat policy leaves out, their cost. */
function toSendUnder(preview: Preview, repeats: Choices): { rows: number; skipped: number; amounts: Preview['totals']['amounts']; byProduct: Preview['totals']['byProduct'] } {
  const { totals } = preview;
  return figureFor(totals.toSend, repeats) ?? { rows: totals.valid, skipped: 0, amounts: totals.amounts, byProduct: totals.byProduct };
}

const leftOutText = (n: number): string => `${plural(n, 'repeated row')} will be left out`;

export function ImportStep() {
  const stores = useStores();
  const w = stores.wizard.getState();
  const file = useWizard((s) => s.file);
  const fileError = useWizard((s) => s.fileError);
  const preview = useWizard((s) => s.preview);
  const status = useWizard((s) => s.previewStatus);
  const previewError = useWizard((s) => s.previewError);
  const creating = useWizard((s) => s.creating);
  const createError = useWizard((s) => s.createError);
  const catalog = useWizard((s) => s.products);
  const blocker = preview ? importBlocker(preview, file?.fileName ?? 'The file') : null;
  const messageProblem = preview ? defaultMessageProblem(preview) : null;
  const workbook = preview?.workbook ?? null;
  const repeats = useWizard((s) => s.repeats);
  const gift = useWizard(selectedProduct);
  // What the draft will send under the repeat choices ticked below (the importer's own rule, counted by the engine).
  const toSend = preview ? toSendUnder(preview, repeats) : null;
  // A workbook whose sheet is not chosen yet: nothing was read, so there is nothing to map or count.
  const choosing = workbook !== null && workbook.sheet === null;
  // A file that is no list (a letter): its "columns", counts and problems mean nothing; only the blocker says what it is.
  const notAList = preview?.notAList === true;
  const downloadTemplate = async (format: TemplateFormat): Promise<void> => {
    const template = await w.templateFile(format);
    if (template) downloadBytes(template.fileName, base64ToBytes(template.bytesBase64), TEMPLATE_TYPES[format]);
  };

  return (
    <div className="step" data-testid="step-import" data-preview={status}>
      {/* The gift, named here too: "Try it with the sample list" comes straight to this step. */}
      {gift && (
        <p className="step-subtitle" data-testid="import-gift">
          Gift: <strong>{productLabel(gift)}</strong> ({formatPrice(gift.price)})
          {preview?.mapping.product !== undefined && ', for the rows that name no gift of their own'}{' '}
          <button type="button" className="link" onClick={() => w.goTo('setup')}>
            Change gift
          </button>
        </p>
      )}
      <FileDrop current={file} onFile={(f) => void w.setFile(f)} onReject={(m) => w.rejectFile(m)} />
      {!file && (
        <p className="muted small" data-testid="template-links">
          No list yet? Download the template, an empty list with the columns Giftbatch reads and a note on each:{' '}
          <button type="button" onClick={() => void downloadTemplate('xlsx')} aria-label="Download the template as an Excel workbook (.xlsx)" data-testid="template-xlsx">
            Excel workbook (.xlsx)
          </button>{' '}
          <button type="button" onClick={() => void downloadTemplate('csv')} aria-label="Download the template as a CSV file" data-testid="template-csv">
            CSV file
          </button>
        </p>
      )}
      {fileError && (
        <Message kind="error" testId="file-error">
          {fileError}
        </Message>
      )}
      {status === 'loading' && <p className="muted" role="status">Reading the file…</p>}
      {status === 'failed' && previewError && (
        <Message kind="error" testId="preview-error">
          {previewError}
        </Message>
      )}
      {workbook && workbook.sheets.length > 1 && <SheetChooser workbook={workbook} disabled={status === 'loading'} onChoose={(name) => void w.chooseSheet(name)} />}
      {preview && toSend && !choosing && !notAList && (
        <>
          {workbook ? (
            <div className="detected" data-testid="detected">
              <span data-testid="detected-workbook">
                Workbook, sheet <strong>{workbook.sheet}</strong> {sheetRowsRead(workbook.sheets.find((sh) => sh.name === workbook.sheet)?.rows ?? 0, preview.totals.rows)}
              </span>
            </div>
          ) : (
            <div className="detected" data-testid="detected">
              <span>
                Encoding: <strong data-testid="detected-encoding">{preview.encoding}</strong>
              </span>
              <label>
                Separator:{' '}
                <select value={preview.delimiter} onChange={(e) => void w.setDelimiter(e.target.value as Delimiter)} data-testid="detected-delimiter">
                  {DELIMITERS.map((d) => (
                    <option key={d.label} value={d.value}>
                      {d.label}
                    </option>
                  ))}
                </select>
              </label>
            </div>
          )}
          <MappingForm preview={preview} disabled={status === 'loading'} onChange={(field, col) => void w.setMapping(field, col)} />
          <div className="summary-cards" data-testid="preview-summary">
            <Stat label="Rows" value={preview.totals.rows} />
            <Stat
              label="Ready to send"
              value={toSend.rows}
              tone="ok"
              testId="preview-valid"
              note={
                toSend.skipped > 0 && (
                  <span className="muted small" data-testid="preview-left-out">
                    {leftOutText(toSend.skipped)}
                  </span>
                )
              }
            />
            <Stat label="Need fixing" value={preview.totals.invalid} tone={preview.totals.invalid > 0 ? 'bad' : undefined} testId="preview-invalid" />
            <Stat label="Repeated e-mails" value={preview.totals.duplicateEmails} tone={preview.totals.duplicateEmails > 0 ? 'warn' : undefined} />
            {preview.totals.knownEmails > 0 && <Stat label="In earlier campaigns" value={preview.totals.knownEmails} tone="warn" />}
            <div className="stat">
              <span className="stat-label">Cost of the ready rows</span>
              <Totals list={toSend.amounts} testId="preview-cost" />
            </div>
          </div>
          <ProductTotals
            list={toSend.byProduct.map((p) => ({ productId: p.productId, name: productNameFor(p.productId, catalog), rows: p.rows, totals: p.amounts }))}
            label="Cost of the ready rows per gift"
            rowsText={(n) => `${n} ready`}
            testId="preview-by-product"
          />
          {preview.problems.length > 0 && (
            <Message kind="warning" testId="preview-problems">
              <p>
                {preview.problems.length === 1 ? 'One problem' : `${preview.problems.length} problems`} while reading the file:
              </p>
              <ul>
                {preview.problems.slice(0, MAX_PROBLEMS).map((p) => (
                  <li key={`${p.line}-${p.message}`}>
                    {/line \d+/i.test(p.message) ? p.message : `Line ${p.line}: ${p.message}`}
                  </li>
                ))}
                {preview.problems.length > MAX_PROBLEMS && <li>…and {preview.problems.length - MAX_PROBLEMS} more.</li>}
              </ul>
            </Message>
          )}
          {messageProblem && (
            <Message kind="error" testId="default-message-problem">
              {messageProblem}
            </Message>
          )}
          {preview.totals.invalid > 0 && (
            <p className="muted">Rows that need fixing can be corrected or skipped in the next step; they are never sent as they are.</p>
          )}
          <RepeatChoices totals={preview.totals} disabled={creating} />
        </>
      )}
      {blocker && status === 'ready' && !choosing && (
        <Message kind="error" testId="import-blocker">
          {blocker}
        </Message>
      )}
      {createError && (
        <Message kind="error" testId="create-error">
          {createError}
        </Message>
      )}
      <SaveProgress />
      <div className="step-actions">
        <button type="button" onClick={() => w.goTo('setup')}>
          Back
        </button>
        <button
          type="button"
          className="button-primary"
          disabled={!preview || status !== 'ready' || creating || blocker !== null}
          onClick={() => void w.createDraft()}
          data-testid="wiz-create"
        >
          {creating ? 'Saving the draft…' : 'Save as draft and review'}
        </button>
      </div>
    </div>
  );
}
