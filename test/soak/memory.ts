// Resident memory of a child process, read from /proc/<pid>/status (Linux). VmHWM is the kernel's
// own high-water mark of VmRSS, so a short spike between two samples is not missed.
import { readFileSync } from 'node:fs';

export interface RssWatch {
  /** Highest resident set seen so far, in bytes (0 when /proc could not be read). */
  peakBytes(): number;
  samples(): number;
  stop(): void;
}

function readKb(status: string, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
  return match?.[1] ? Number(match[1]) : 0;
}

/** Samples every `intervalMs` until stopped or the process is gone. */
export function watchRss(pid: number, intervalMs = 50): RssWatch {
  let peak = 0;
  let count = 0;
  const sample = () => {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      return; // gone (or not Linux): keep what we have
    }
    count += 1;
    peak = Math.max(peak, readKb(status, 'VmRSS'), readKb(status, 'VmHWM')) ;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    peakBytes: () => peak * 1024,
    samples: () => count,
    stop() {
      sample();
      clearInterval(timer);
    },
  };
}

export const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
