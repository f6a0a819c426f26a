// A campaign with N ready rows against a simulator product, created through the repos exactly as
// an import would (one transaction, a key per row).

import { parseDecimal } from '../../shared/domain/money.ts';
import { ROW_STATES } from '../../shared/domain/rows.ts';
import type { Db } from '../../electron/core/db/open.ts';
import { createCampaign, type Campaign, type Environment, type ProductSnapshot } from '../../electron/core/db/repos/campaigns.ts';
import { listByState, type NewRecipient, type Recipient } from '../../electron/core/db/repos/recipients.ts';
import { productBySlug, productIdFor } from '../../electron/simulator/index.ts';
import { TEST_KEY } from './keys.ts';

export const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);

export interface MakeCampaignOptions {
  readonly rows: number;
  /** A simulator catalog slug (default 'us-fixed-25'). */
  readonly productSlug?: string;
  /** The API key whose product ids to use (ids differ per key). */
  readonly key?: string;
  readonly baseUrl?: string;
  readonly environment?: Environment;
  readonly name?: string;
  /** Row amounts in minor units, for range products (default: the minimum + i cents/units). */
  readonly amountMinor?: number | ((i: number) => number);
  readonly senderName?: string;
  readonly message?: string | null;
  /** Extra fields per row (a row message, a broken e-mail…). */
  readonly row?: (i: number) => Partial<NewRecipient>;
  readonly now?: number;
  /** The product as the campaign read it, when not as the simulator's catalog lists it now (bounds since changed…). */
  readonly product?: ProductSnapshot;
}

export interface MadeCampaign {
  readonly campaign: Campaign;
  readonly rowIds: number[];
  readonly productId: number;
}

/** The snapshot a validated campaign keeps of a simulator product. */
export function snapshotOfSlug(slug: string): ProductSnapshot {
  const p = productBySlug(slug);
  const common = { name: p.name, currency: p.currency, deliveryMethods: [...p.deliveryMethods], availability: p.availability };
  if (p.amount !== undefined) return { priceKind: 'fixed', amountMinor: parseDecimal(p.amount, p.currency).minor, ...common };
  if (p.minAmount === undefined || p.maxAmount === undefined) throw new Error(`product ${slug} has no price`);
  return {
    priceKind: 'range',
    minMinor: parseDecimal(p.minAmount, p.currency).minor,
    maxMinor: parseDecimal(p.maxAmount, p.currency).minor,
    ...common,
  };
}

export function recipientRow(i: number, amountMinor: number, currency: string): NewRecipient {
  return { line: i + 2, name: `Recipient ${i}`, email: `r${i}@example.com`, amountMinor, currency };
}

export function makeCampaign(db: Db, opts: MakeCampaignOptions): MadeCampaign {
  const slug = opts.productSlug ?? 'us-fixed-25';
  const product = opts.product ?? snapshotOfSlug(slug);
  const productId = productIdFor(opts.key ?? TEST_KEY, slug);
  const amountFor = (i: number): number => {
    if (typeof opts.amountMinor === 'number') return opts.amountMinor;
    if (opts.amountMinor) return opts.amountMinor(i);
    return product.priceKind === 'fixed' ? product.amountMinor : product.minMinor + (i % 100);
  };
  const rows = Array.from({ length: opts.rows }, (_, i) => ({ ...recipientRow(i, amountFor(i), product.currency), ...opts.row?.(i) }));
  const { campaign } = createCampaign(
    db,
    {
      name: opts.name ?? `Test campaign (${slug})`,
      environment: opts.environment ?? 'simulator',
      baseUrl: opts.baseUrl ?? 'http://127.0.0.1:1',
      productId,
      product,
      senderName: opts.senderName ?? 'Event Team',
      message: opts.message === undefined ? 'Thank you for coming!' : opts.message,
      currency: product.currency,
    },
    rows,
    opts.now ?? T0,
  );
  const rowIds = allRows(db, campaign.id).map((r) => r.id);
  return { campaign, rowIds, productId };
}

/** Every row of a campaign, in import order, whatever its state. */
export function allRows(db: Db, campaignId: string): Recipient[] {
  return ROW_STATES.flatMap((s) => listByState(db, campaignId, s)).sort((a, b) => a.id - b.id);
}
