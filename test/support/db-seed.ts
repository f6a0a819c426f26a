// Rows for the repository tests: a campaign's fields, a person per line, and a campaign seeded with
// N ready rows through the repository, as an import stores them. The database itself is db.ts's.
import type { Db } from '../../electron/core/db/open.ts';
import { createCampaign, type NewCampaign } from '../../electron/core/db/repos/campaigns.ts';
import type { NewRecipient } from '../../electron/core/db/repos/recipients.ts';

export { tempDb, tempDir, track } from './db.ts';

export const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);

export const campaignInput: NewCampaign = {
  name: 'Speakers 2026',
  environment: 'simulator',
  baseUrl: 'http://127.0.0.1:4010',
  productId: 101,
  product: { priceKind: 'fixed', amountMinor: 2500, currency: 'USD', deliveryMethods: ['EMAIL'], availability: 'ON_SALE', name: 'Gift card' },
  senderName: 'Conf Team',
  message: 'Thank you!',
  defaultAmountMinor: 2500,
  currency: 'USD',
};

export function person(i: number, over: Partial<NewRecipient> = {}): NewRecipient {
  return { line: i + 2, name: `Person ${i}`, email: `p${i}@example.com`, amountMinor: 2500, currency: 'USD', ...over };
}

/** A campaign with `n` ready rows; returns its id and its rows' ids in import order. */
export function seed(db: Db, n: number, over: Partial<NewCampaign> = {}, now = T0): { campaignId: string; rowIds: number[] } {
  const { campaign } = createCampaign(db, { ...campaignInput, ...over }, Array.from({ length: n }, (_, i) => person(i)), now);
  const rowIds = db
    .prepare('SELECT id FROM recipients WHERE campaign_id = ? ORDER BY id')
    .pluck()
    .all(campaign.id)
    .map((v) => Number(v));
  return { campaignId: campaign.id, rowIds };
}

/**
 * Tallies rows a test inserted with plain SQL (their external_reference_id starting with
 * `keyPrefix`) as the import tallies what it stores: an insert has no trigger.
 */
export function tallyInserted(db: Db, campaignId: string, keyPrefix: string): void {
  db.prepare(
    `INSERT INTO recipient_tallies (campaign_id, state, currency, rows, priced, amount_minor, flagged)
     SELECT campaign_id, state, currency, count(*), count(*), sum(amount_minor), 0 FROM recipients
     WHERE campaign_id = ? AND external_reference_id LIKE ? || '%' GROUP BY state, currency
     ON CONFLICT DO UPDATE SET rows = rows + excluded.rows, priced = priced + excluded.priced, amount_minor = amount_minor + excluded.amount_minor`,
  ).run(campaignId, keyPrefix);
}
