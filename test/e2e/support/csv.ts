// CSV files the specs upload, made on the fly.
export function recipientsCsv(count: number, domain = 'example.net'): { name: string; mimeType: string; buffer: Buffer } {
  const lines = ['Name,Email'];
  for (let i = 1; i <= count; i++) lines.push(`Guest ${String(i).padStart(5, '0')},guest${i}@${domain}`);
  return { name: `guests-${count}.csv`, mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8') };
}
