// Named places where the crash tests kill the process (test/integration/cli/crash-resume.test.ts):
// GIFTBATCH_CRASH_AT=<point>[:<n>] sends SIGKILL to this process the n-th time (default 1st) it
// passes <point>. Unset, this is a no-op: one string comparison per call.
export const CRASH_POINTS = ['after-intent-commit', 'after-post-sent', 'after-response', 'mid-report'] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

const spec = parse(process.env.GIFTBATCH_CRASH_AT);
let hits = 0;

function parse(text: string | undefined): { point: string; nth: number } | null {
  if (!text) return null;
  const [point = '', nth = '1'] = text.split(':');
  return { point, nth: Math.max(1, Number(nth) || 1) };
}

export function crashPoint(point: CrashPoint): void {
  if (spec === null || spec.point !== point) return;
  hits += 1;
  if (hits >= spec.nth) process.kill(process.pid, 'SIGKILL');
}

/** For a request in flight: dies `afterMs` after it left, if it is still unanswered by then. */
export function crashWhilePending(point: CrashPoint, pending: Promise<unknown>, afterMs = 40): void {
  if (spec === null || spec.point !== point) return;
  let answered = false;
  void pending.finally(() => (answered = true));
  setTimeout(() => {
    if (!answered) crashPoint(point);
  }, afterMs);
}
