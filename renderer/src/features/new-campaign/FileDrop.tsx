// A CSV or a workbook (.xlsx, .ods) comes in by the file picker or by dropping it here; either way it
// is read as bytes (the engine tells the format apart by the bytes and detects a CSV's encoding) and
// handed over as base64. The visible "Choose a file…" button is the
// one control: the native file input it opens is hidden outright (not just visually), so it is neither
// a second, invisible tab stop nor an unlabelled field to a screen reader.
import { useRef, useState } from 'react';
import { RECIPIENT_FILE_EXTENSIONS } from '../../../../shared/domain/file-formats.ts';
import { base64Size, bytesToBase64, formatBytes } from '../../lib/base64.ts';
import type { WizardFile } from '../../stores/wizard-store.ts';

const MAX_BYTES = 50 * 1024 * 1024;

/** The picker offers CSV text and workbooks, by extension and by type (some systems know only one). */
const ACCEPT = [
  ...RECIPIENT_FILE_EXTENSIONS,
  'text/csv',
  'text/plain',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
].join(',');

async function readFile(file: File): Promise<WizardFile | string> {
  if (file.size === 0) return `"${file.name}" is empty. Choose your list of recipients: a CSV file or a workbook (.xlsx, .ods).`;
  if (file.size > MAX_BYTES) return `"${file.name}" is ${formatBytes(file.size)}; the limit is ${formatBytes(MAX_BYTES)}. Split the list into several campaigns.`;
  const bytes = new Uint8Array(await file.arrayBuffer());
  const bytesBase64 = bytesToBase64(bytes);
  return { fileName: file.name, bytesBase64, size: base64Size(bytesBase64) };
}

export function FileDrop({ current, onFile, onReject }: { current: WizardFile | null; onFile: (f: WizardFile) => void; onReject: (message: string) => void }) {
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const take = async (file: File | undefined): Promise<void> => {
    if (!file) return;
    const read = await readFile(file);
    if (typeof read === 'string') onReject(read);
    else onFile(read);
  };

  return (
    <div
      className={`dropzone${over ? ' dropzone-over' : ''}`}
      data-testid="dropzone"
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        void take(e.dataTransfer.files[0]);
      }}
    >
      <p>
        {current ? (
          <>
            <strong data-testid="file-name">{current.fileName}</strong> <span className="muted">({formatBytes(current.size)})</span>
          </>
        ) : (
          'Drop your list of recipients here (a CSV file or an .xlsx or .ods workbook), or'
        )}
      </p>
      <input
        ref={input}
        id="wiz-file"
        type="file"
        accept={ACCEPT}
        hidden
        data-testid="wiz-file"
        onChange={(e) => {
          void take(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <button type="button" onClick={() => input.current?.click()} aria-describedby="wiz-file-help" data-testid="wiz-file-choose">
        {current ? 'Choose another file…' : 'Choose a file…'}
      </button>
      <p id="wiz-file-help" className="muted small">One row per recipient with at least a name and an e-mail column, a title row above it is fine. CSV in UTF-8 or Excel's encodings with , ; or tab separators, or an Excel or LibreOffice workbook.</p>
    </div>
  );
}
