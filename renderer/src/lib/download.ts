// Saves text as a file from the browser: a Blob behind a temporary link. The report is CSV with a
// BOM so Excel reads it as UTF-8; the BOM is added here only if the text lacks it.
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const body = text.startsWith('\uFEFF') ? text : `\uFEFF${text}`;
  const url = URL.createObjectURL(new Blob([body], { type }));
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
