// Times as people read them: "in 40 s", "3 min ago", and a plain local date-time.

export function formatRelative(at: number, now: number): string {
  const diff = at - now;
  const abs = Math.abs(diff);
  let text: string;
  if (abs < 1000) return 'now';
  if (abs < 60_000) text = `${Math.round(abs / 1000)} s`;
  else if (abs < 3_600_000) text = `${Math.round(abs / 60_000)} min`;
  else if (abs < 86_400_000) text = `${Math.round(abs / 3_600_000)} h`;
  else text = `${Math.round(abs / 86_400_000)} d`;
  return diff > 0 ? `in ${text}` : `${text} ago`;
}

/** "2025-03-14 09:05", or "2025-03-14 09:05:07" with `seconds`. */
export function formatDateTime(at: number, options: { seconds?: boolean } = {}): string {
  const d = new Date(at);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}${options.seconds ? `:${pad(d.getSeconds())}` : ''}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}
