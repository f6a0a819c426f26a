// Reads the embedded simulator's own record of the orders it created (its state file in the data
// folder), so a test can count orders per external_reference_id from the service's side.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function ordersByReference(dataDir: string): Map<string, number> {
  const counts = new Map<string, number>();
  const text = readFileSync(join(dataDir, 'simulator-state.jsonl'), 'utf8');
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue; // a torn last line after SIGKILL; the simulator skips it too
    }
    const record = parsed as { type?: unknown; externalReferenceId?: unknown };
    if (record.type !== 'order' || typeof record.externalReferenceId !== 'string') continue;
    counts.set(record.externalReferenceId, (counts.get(record.externalReferenceId) ?? 0) + 1);
  }
  return counts;
}
