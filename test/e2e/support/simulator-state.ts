// Reads the embedded simulator's own record of the orders it created (its state file in the data
// folder), so a test can check orders from the service's side: how many per external_reference_id,
// and what each was for (its product and recipient).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** An order as the simulator recorded it: the fields a test checks. */
export interface SimulatorOrder {
  readonly externalReferenceId: string;
  readonly productId: number;
  /** What the service issued, in minor units; null when the line holds none it can read. */
  readonly price: { readonly currency: string; readonly minor: number } | null;
  readonly recipientEmail: string;
}

/** Every order line of the state file, in the order written (a retry's replay is a line of its own). */
export function simulatorOrders(dataDir: string): SimulatorOrder[] {
  const orders: SimulatorOrder[] = [];
  const text = readFileSync(join(dataDir, 'simulator-state.jsonl'), 'utf8');
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue; // a torn last line after SIGKILL; the simulator skips it too
    }
    const record = parsed as {
      type?: unknown;
      externalReferenceId?: unknown;
      productId?: unknown;
      price?: { currency?: unknown; minor?: unknown };
      delivery?: { recipient?: { email?: unknown } };
    };
    if (record.type !== 'order' || typeof record.externalReferenceId !== 'string') continue;
    orders.push({
      externalReferenceId: record.externalReferenceId,
      productId: typeof record.productId === 'number' ? record.productId : Number.NaN,
      price: typeof record.price?.currency === 'string' && typeof record.price.minor === 'number' ? { currency: record.price.currency, minor: record.price.minor } : null,
      recipientEmail: typeof record.delivery?.recipient?.email === 'string' ? record.delivery.recipient.email : '',
    });
  }
  return orders;
}

export function ordersByReference(dataDir: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { externalReferenceId } of simulatorOrders(dataDir)) counts.set(externalReferenceId, (counts.get(externalReferenceId) ?? 0) + 1);
  return counts;
}
