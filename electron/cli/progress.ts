// Progress for long sends: a bar with counts and ETA on a terminal, plain lines otherwise (logs, CI).
// Always on stderr: stdout carries only results. Fed by the campaign summaries of the app service's
// `campaign:progress` events.
import type { CampaignSummary } from '../../shared/contract.ts';

export interface ProgressView {
  /** `final`: the run ended; plain mode prints the last counts even within its 2 s. */
  update(campaign: Pick<CampaignSummary, 'counts'>, final?: boolean): void;
  done(): void;
}

export function progressView(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): ProgressView {
  const tty = Boolean(stream.isTTY);
  let lastLine = 0;
  let lastText = '';
  let drawn = false;
  // The rate is this run's: settled rows since the first event, over the time since then.
  let start: { at: number; settled: number } | null = null;
  return {
    update({ counts: c }, final = false) {
      const settled = c.ordered + c.delivered + c.failed + c.cancelled;
      const total = settled + c.ready + c.sending;
      start ??= { at: now(), settled };
      const fraction = total === 0 ? 1 : settled / total;
      const elapsed = now() - start.at;
      const rate = elapsed > 0 ? ((settled - start.settled) / elapsed) * 1000 : 0;
      const left = c.ready + c.sending;
      const eta = rate > 0 && left > 0 ? `, ETA ${formatDuration((left / rate) * 1000)}` : '';
      // Once the run has ended nothing is in flight: a row still \`sending\` waits for its order to be
      // looked up by key (resume) or for a person (a pause on unconfirmed rows), and is named so.
      const open = final ? (c.sending > 0 ? `, unconfirmed ${c.sending}` : '') : `, in flight ${c.sending}`;
      const counts = `${settled}/${total} sent (ordered ${c.ordered + c.delivered}, failed ${c.failed}${open})`;
      if (tty) {
        const width = 24;
        const filled = Math.round(fraction * width);
        const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(fraction * 100)}%`;
        stream.write(`\r\x1b[2K${bar} ${counts}${eta}`);
        drawn = true;
        return;
      }
      // Plain mode: a line every 2 s at most, and only when something changed.
      if (counts !== lastText && (now() - lastLine >= 2000 || final)) {
        stream.write(`progress: ${counts}${eta}\n`);
        lastLine = now();
        lastText = counts;
      }
    },
    done() {
      if (tty && drawn) stream.write('\n');
      drawn = false;
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

export interface SaveProgressView {
  /** How far `campaigns:create` is (its `campaigns:createProgress` events). */
  update(progress: { phase: 'checking' | 'storing'; stored: number; total: number | null }): void;
  /** The create answered: a terminal's line is cleared (what follows says what was made). */
  done(): void;
}

/**
 * While `send` saves a large file as a draft: on a terminal, one line redrawn ("Saving the draft:
 * 42,000 of 100,000 rows"); otherwise a plain line every 2 s at most, and only once the saving has
 * taken 2 s (a small file prints nothing). Always on stderr: stdout carries only results.
 */
export function saveProgressView(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): SaveProgressView {
  const tty = Boolean(stream.isTTY);
  const started = now();
  let lastLine = started;
  let drawn = false;
  const count = (n: number) => n.toLocaleString('en-US');
  return {
    update({ phase, stored, total }) {
      const text = phase === 'checking' || total === null ? 'checking the file' : `${count(stored)} of ${count(total)} rows`;
      if (tty) {
        stream.write(`\r\x1b[2KSaving the draft: ${text}`);
        drawn = true;
        return;
      }
      if (now() - lastLine >= 2000) {
        stream.write(`saving: ${text}\n`);
        lastLine = now();
      }
    },
    done() {
      if (tty && drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
