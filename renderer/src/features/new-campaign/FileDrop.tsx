// A CSV comes in by the file picker or by dropping it here; either way it is read as bytes (the
// engine detects the encoding) and handed over as base64. The visible "Choose a file…" button is the
// one control: the native file input it opens is hidden outright (not just visually), so it is neither
// a second, invisible tab stop nor an unlabelled field to a screen reader.
import { useRef, useState } from 'react';
import { base64Size, bytesToBase64, formatBytes } from '../../lib/base64.ts';
import type { WizardFile } from '../../stores/wizard-store.ts';

const MAX_BYTES = 50 * 1024 * 1024;

async function readFile(file: File): Promise<WizardFile | string> {
  if (file.size === 0) return `"${file.name}" is empty. Choose the CSV export of your list.`;
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
          'Drop the CSV of your recipients here, or'
        )}
      </p>
      <input
        ref={input}
        id="wiz-file"
        type="file"
        accept=".csv,.txt,.tsv,text/csv,text/plain"
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
      <p id="wiz-file-help" className="muted small">One row per recipient with at least a name and an e-mail column. UTF-8, Excel exports and ; or tab separators work.</p>
    </div>
  );
}
