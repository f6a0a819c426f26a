// Progress for long sends: a bar with counts and ETA on a terminal, plain lines otherwise (logs, CI).
// Always on stderr: stdout carries only results.
import type { SendProgress } from '../core/campaigns/send-queue.ts';

export interface ProgressView {
  update(progress: SendProgress): void;
  done(): void;
}

export function progressView(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): ProgressView {
  const tty = Boolean(stream.isTTY);
  let lastLine = 0;
  let lastText = '';
  let drawn = false;
  return {
    update(p) {
      const c = p.counts;
      const settled = c.ordered + c.delivered + c.failed + c.cancelled;
      const total = settled + c.ready + c.sending;
      const fraction = total === 0 ? 1 : settled / total;
      const rate = p.stats.elapsedMs > 0 ? (p.stats.sent / p.stats.elapsedMs) * 1000 : 0;
      const left = c.ready + c.sending;
      const eta = rate > 0 && left > 0 ? `, ETA ${formatDuration((left / rate) * 1000)}` : '';
      const counts = `${settled}/${total} sent (ordered ${c.ordered + c.delivered}, failed ${c.failed}, in flight ${c.sending})`;
      const extra = p.stats.retries > 0 ? `, ${p.stats.retries} retries` : '';
      if (tty) {
        const width = 24;
        const filled = Math.round(fraction * width);
        const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(fraction * 100)}%`;
        stream.write(`\r\x1b[2K${bar} ${counts}${extra}${eta}`);
        drawn = true;
        return;
      }
      const text = `${counts}${extra}`;
      // Plain mode: a line every 2 s at most, and only when something changed.
      if (text !== lastText && (now() - lastLine >= 2000 || p.phase === 'finished')) {
        stream.write(`progress: ${text}${eta}\n`);
        lastLine = now();
        lastText = text;
      }
    },
    done() {
      if (tty && drawn) stream.write('\n');
    },
  };
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
