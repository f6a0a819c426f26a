// One draft row, read-only or being edited. Errors show under the cell they belong to; edits are
// checked as you type with the same validation the engine runs when saving. When the rows have
// several gifts, the editor offers the row another one (rows:edit's product).
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ProductDto, RowDto } from '../../../../shared/contract.ts';
import { toDecimal } from '../../../../shared/domain/money.ts';
import { RowAmount } from '../../components/Money.tsx';
import { SkipReason } from '../../components/SkipReason.tsx';
import { StateChip } from '../../components/StateChip.tsx';
import { formatPrice } from '../../lib/money-display.ts';
import { productLabel } from '../../lib/products.ts';
import { issueText, issuesFor, rowLevelIssues, type Issue } from '../../lib/rows.ts';
import { amountErrorShort, editErrors, type EditFields } from '../../lib/validate-edit.ts';
import { useStores, useWizard } from '../../stores/hooks.ts';
import type { RowCheck } from '../../stores/wizard-store.ts';
import { DRAFT_ROW_HEIGHT } from './DraftTable.tsx';

/**
 * A cell's first issue under its value, every issue as its title. `short`: the first error in a few
 * words when the cell has room for one short line (a refused amount: 'Must be 25.00'); the whole text
 * stays the title and is what a screen reader reads.
 */
function CellIssue({ errors, warnings, id, short }: { errors: Issue[]; warnings: Issue[]; id?: string; short?: ((error: string) => string) | undefined }) {
  const first = errors[0] ?? warnings[0];
  if (!first) return null;
  const all = [...errors, ...warnings].map(issueText).join('\n');
  const text = issueText(first);
  const shown = short && errors.length > 0 ? short(text) : text;
  return (
    <span id={id} className={errors.length > 0 ? 'cell-error' : 'cell-warning'} title={all} data-testid={errors.length > 0 ? 'cell-error' : 'cell-warning'}>
      {shown === text ? (
        text
      ) : (
        <>
          <span aria-hidden="true">{shown}</span>
          <span className="visually-hidden">{text}</span>
        </>
      )}
    </span>
  );
}

/** An e-mail address that may break before its "@" when it wraps (the review gives it two lines), not mid-word. */
function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}

function Cell({ row, field, title, short, children }: { row: RowDto; field: string; title?: string | undefined; short?: ((error: string) => string) | undefined; children: React.ReactNode }) {
  const errors = issuesFor(row.errors, field);
  const warnings = issuesFor(row.warnings, field);
  return (
    <span role="cell" className={`cell${errors.length > 0 ? ' cell-invalid' : ''}`} data-field={field}>
      <span className="cell-value" title={title}>
        {children}
      </span>
      <CellIssue errors={errors} warnings={warnings} short={short} />
    </span>
  );
}

/** A row's gift (a gift per row): the name of the product it is ordered as; when its gift column names no product, the reason instead. */
function ProductCell({ row, product }: { row: RowDto; product: string }) {
  const unknown = issuesFor(row.errors, 'product').length > 0;
  return (
    <Cell row={row} field="product" title={unknown ? undefined : product}>
      <span className="cell-product" data-testid="row-product">
        {unknown ? '—' : product}
      </span>
    </Cell>
  );
}

/**
 * `product`: the row's gift, shown when the draft's rows have several (null: no such column).
 * `validation`: what the row is checked against (its product's price), for a refused amount's reason
 * in a few words ('Must be 25.00', 'At most 500.00'); null: the reason as it is.
 */
export function DraftRow({ row, index, product, validation = null, onEdit }: { row: RowDto; index: number; product: string | null; validation?: RowValidation | null; onEdit: () => void }) {
  const stores = useStores();
  const busy = useWizard((s) => s.rowBusy === row.id);
  const rowError = useWizard((s) => (s.rowError?.rowId === row.id ? s.rowError.message : null));
  const rowIssues = rowLevelIssues(row.errors);
  const w = stores.wizard.getState();
  const editable = row.state === 'ready' || row.state === 'invalid';
  // The message as its order will carry it (fields filled in); as written when it cannot be filled in.
  const message = row.sentMessage ?? row.message ?? '';
  return (
    <div
      className={`grid-row${row.state === 'invalid' ? ' grid-row-invalid' : ''}${row.state === 'skipped' ? ' grid-row-skipped' : ''}`}
      role="row"
      aria-rowindex={index + 2}
      style={{ height: DRAFT_ROW_HEIGHT }}
      data-testid="draft-row"
      data-line={row.line}
      data-row-id={row.id}
      data-status={row.state}
    >
      <span role="cell" className="num muted">
        {row.line}
      </span>
      <Cell row={row} field="name">
        {row.name ?? ''}
      </Cell>
      <Cell row={row} field="email" title={row.email ?? undefined}>
        <EmailText email={row.email ?? ''} />
      </Cell>
      {product !== null && <ProductCell row={row} product={product} />}
      <Cell row={row} field="amount" short={validation && row.amountText ? (error) => amountErrorShort(error, row.amountText ?? '', validation.product) : undefined}>
        <RowAmount row={row} />
      </Cell>
      <Cell row={row} field="message" title={message === '' ? undefined : message}>
        <span data-testid="row-message">{message}</span>
      </Cell>
      <span role="cell" className="cell">
        <StateChip state={row.state} />
        {(rowError ?? rowIssues[0]) ? (
          <span className="cell-error" title={rowError ?? undefined}>
            {rowError ?? issueText(rowIssues[0] as Issue)}
          </span>
        ) : (
          row.state === 'skipped' && row.skippedBy !== null && <SkipReason policy={row.skippedBy} />
        )}
      </span>
      <span role="cell" className="cell-actions">
        {editable && (
          <button type="button" className="button-small" onClick={onEdit} disabled={busy} aria-label={`Edit line ${row.line}`} data-testid="row-edit">
            Edit
          </button>
        )}
        {editable && (
          <button type="button" className="button-small button-quiet" onClick={() => void w.skipRow(row.id)} disabled={busy} aria-label={`Skip line ${row.line}`} data-testid="row-skip">
            Skip
          </button>
        )}
        {row.state === 'skipped' && (
          <button type="button" className="button-small" onClick={() => void w.unskipRow(row.id)} disabled={busy} aria-label={`Take line ${row.line} back`} data-testid="row-unskip">
            Take back
          </button>
        )}
      </span>
    </div>
  );
}

/** What an edited row is checked against as it is typed: its own product, and the campaign's default amount (the wizard store's rowValidations). */
export type RowValidation = RowCheck;

interface EditorProps {
  row: RowDto;
  index: number;
  /** The row's gift when the table shows that column (null: no such column). */
  product: string | null;
  /** The gifts the row may be given instead (the orderable products of the campaign's country); none: it keeps its own. */
  choices: readonly ProductDto[];
  /** What a row ordered as a product is checked against as it is typed; null when that product is not loaded. */
  validationFor: (productId: number) => RowValidation | null;
  onDone: () => void;
}

/** A gift to choose in the editor: its name and its price or range ("Harborline Market eGift · USD 5.00 – 500.00"). */
export function giftChoiceLabel(p: ProductDto): string {
  return `${productLabel(p)} · ${formatPrice(p.price)}`;
}

export function DraftRowEditor({ row, index, product, choices, validationFor, onDone }: EditorProps) {
  const stores = useStores();
  const busy = useWizard((s) => s.rowBusy === row.id);
  const serverError = useWizard((s) => (s.rowError?.rowId === row.id ? s.rowError.message : null));
  const [fields, setFields] = useState<EditFields>({
    name: row.name ?? '',
    email: row.email ?? '',
    amount: row.amount?.amount ?? row.amountText ?? '',
    message: row.message ?? '',
  });
  // A row whose gift cell named no product has none chosen until the person picks one; the engine keeps
  // the file's error until then.
  const productError = issuesFor(row.errors, 'product');
  const [gift, setGift] = useState<number | null>(productError.length > 0 ? null : row.productId);
  const canChoose = product !== null && choices.length > 0;
  const chosen = choices.find((p) => p.id === gift) ?? null;
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    first.current?.focus();
  }, []);

  const validation = validationFor(gift ?? row.productId);
  const live = validation ? editErrors(validation.product, row.line, fields, validation.defaultAmount, row.cells ?? {}) : {};
  const stale = row.errors; // what the engine said before this edit, until the person types
  const fieldError = (field: 'name' | 'email' | 'amount' | 'message'): string | undefined =>
    validation ? live[field] : issuesFor(stale, field).map(issueText)[0];

  const save = async (): Promise<void> => {
    // Sent only when the gift changes (or replaces the file's unknown one): the engine then reads the catalog.
    const newGift = canChoose && gift !== null && (gift !== row.productId || productError.length > 0);
    const saved = await stores.wizard.getState().editRow(row.id, {
      name: fields.name,
      email: fields.email,
      amount: fields.amount.trim() === '' ? null : fields.amount.trim(),
      message: fields.message.trim() === '' ? null : fields.message,
      ...(newGift ? { product: String(gift) } : {}),
    });
    if (saved) onDone();
  };
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void save();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onDone();
    }
  };
  const input = (field: keyof EditFields, label: string, ref?: React.Ref<HTMLInputElement>, placeholder?: string) => {
    const error = fieldError(field);
    const errorId = `edit-${row.id}-${field}-error`;
    // The amount's error in a few words when the product's price says what to type (the whole text read out).
    const short = error && field === 'amount' && validation ? amountErrorShort(error, fields.amount, validation.product) : error;
    return (
      <span role="cell" className="cell cell-editing">
        <input
          ref={ref}
          aria-label={`${label}, line ${row.line}`}
          value={fields[field]}
          onChange={(e) => setFields({ ...fields, [field]: e.target.value })}
          onKeyDown={onKey}
          aria-invalid={error !== undefined}
          aria-describedby={error ? errorId : undefined}
          placeholder={placeholder}
          data-testid={`edit-${field}`}
        />
        {error && (
          <span id={errorId} className="cell-error" title={error}>
            {short !== error ? (
              <>
                <span aria-hidden="true">{short}</span>
                <span className="visually-hidden">{error}</span>
              </>
            ) : (
              error
            )}
          </span>
        )}
      </span>
    );
  };

  return (
    <div className="grid-row grid-row-editing" role="row" aria-rowindex={index + 2} style={{ height: DRAFT_ROW_HEIGHT }} data-testid="draft-row-editor" data-line={row.line}>
      <span role="cell" className="num muted">
        {row.line}
      </span>
      {input('name', 'Name', first)}
      {input('email', 'E-mail')}
      {product !== null && !canChoose && <ProductCell row={row} product={product} />}
      {canChoose && (
        <span role="cell" className="cell cell-editing" data-field="product">
          <select
            aria-label={`Gift, line ${row.line}`}
            title={chosen ? giftChoiceLabel(chosen) : undefined}
            value={gift === null ? '' : String(gift)}
            onChange={(e) => setGift(e.target.value === '' ? null : Number(e.target.value))}
            onKeyDown={onKey}
            aria-invalid={gift === null && productError.length > 0}
            aria-describedby={gift === null && productError.length > 0 ? `edit-${row.id}-product-error` : undefined}
            data-testid="edit-product"
          >
            {gift === null && <option value="">Choose a gift…</option>}
            {/* The row's own gift stays offered even when the loaded catalog no longer lists it as orderable. */}
            {!choices.some((p) => p.id === row.productId) && productError.length === 0 && <option value={String(row.productId)}>{product}</option>}
            {choices.map((p) => (
              <option key={p.id} value={String(p.id)}>
                {giftChoiceLabel(p)}
              </option>
            ))}
          </select>
          {gift === null && productError.length > 0 && (
            <span id={`edit-${row.id}-product-error`} className="cell-error" title={productError.map(issueText).join('\n')}>
              {issueText(productError[0] as Issue)}
            </span>
          )}
          {/* The narrow select cuts the name short: the chosen gift's price or range stays readable under it. */}
          {chosen && (
            <span className="cell-sub" data-testid="edit-product-price">
              {formatPrice(chosen.price)}
            </span>
          )}
        </span>
      )}
      {/* Left empty, the row is given the campaign's default amount: the empty field shows it, greyed (the column is narrow). */}
      {input('amount', 'Amount', undefined, validation?.defaultAmount ? toDecimal(validation.defaultAmount) : undefined)}
      {input('message', 'Message')}
      <span role="cell" className="cell">
        {serverError && <span className="cell-error" title={serverError}>{serverError}</span>}
      </span>
      <span role="cell" className="cell-actions">
        <button type="button" className="button-small button-primary" onClick={() => void save()} disabled={busy} data-testid="edit-save">
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button-small button-quiet" onClick={onDone} disabled={busy}>
          Cancel
        </button>
      </span>
    </div>
  );
}
