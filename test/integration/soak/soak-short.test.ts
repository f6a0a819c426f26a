import { expect, it } from 'vitest';
import { formatSummary, runSoak } from '../../soak/soak.ts';

// Issue 5, "Soak under faults", in the short form CI runs: the same code as `npm run soak`, with
// 600 rows and 6 SIGKILLs instead of 5,000 and 30.
it('600 rows through every fault with 6 SIGKILLs and resumes: one order per key, records equal to the audit, totals equal, memory flat, integrity ok', async () => {
  const summary = await runSoak({ rows: 600, kills: 6, seconds: 60, seed: 20260502 });
  console.log(formatSummary(summary));
  expect(summary.failures).toEqual([]);
  expect(summary.kills).toBeGreaterThanOrEqual(6);
  expect(summary.orders).toBe(600);
  expect(summary.duplicates).toBe(0);
  expect(summary.integrity).toBe('ok');
  expect(summary.memory.ratio).toBeLessThanOrEqual(summary.memory.limit);
  // The faults really happened, or the soak proves less than it says.
  for (const kind of ['resetAfterCommit', 'error500BeforeCommit', 'slow', 'truncate']) expect(summary.faults[kind], kind).toBeGreaterThan(0);
  expect(summary.rateLimited).toBeGreaterThan(0);
  expect(summary.ok).toBe(true);
}, 240_000);
