// Saves text or bytes as a file from the browser: a Blob behind a temporary link. The report is CSV with a
// BOM so Excel reads it as UTF-8; the BOM is added here only if the text lacks it.
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const body = text.startsWith('\uFEFF') ? text : `\uFEFF${text}`;
  download(fileName, new Blob([body], { type }));
}

/** Saves bytes as they are (a workbook, a CSV that carries its own BOM). */
export function downloadBytes(fileName: string, bytes: Uint8Array<ArrayBuffer>, type: string): void {
  download(fileName, new Blob([bytes], { type }));
}

function download(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke later: some browsers start the download only after the click handler returns.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
