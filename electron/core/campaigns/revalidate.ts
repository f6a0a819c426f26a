// Checking a campaign's unsent rows again against its product as the catalog has it now, in place
// (issue 11, item 3). A new import would mint new keys for every row, rows already ordered included,
// and pay them again; here every row keeps its key, and only rows that were never sent (ready,
// invalid) change: what was sent keeps what it was sent with.
import { keepProductErrors, validateRows } from '../../../shared/domain/validation.ts';
import type { Db } from '../db/open.ts';
import { setProductSnapshot, type Campaign, type ProductSnapshot } from '../db/repos/campaigns.ts';
import { editRow } from '../db/repos/recipient-edits.ts';
import { listCampaignRows, usedEmails } from '../db/repos/recipients.ts';
import { campaignChecks, storedRowInput, storedValues } from './stored-rows.ts';

export interface RevalidateCounts {
  checked: number;
  ready: number;
  invalid: number;
}

/**
 * One transaction: the campaign's new product snapshots (its own, and those its rows name), and every
 * unsent row checked against its own product as it is now.
 */
export function revalidateRows(db: Db, campaign: Campaign, products: ReadonlyMap<number, ProductSnapshot>, now: number): RevalidateCounts {
  return db.transaction((): RevalidateCounts => {
    for (const [productId, snapshot] of products) setProductSnapshot(db, campaign.id, productId, snapshot, now);
    // Every row in file order, so a repeated e-mail is flagged on its later line, as at import.
    const rows = listCampaignRows(db, campaign.id);
    const checks = campaignChecks(campaign, products);
    const result = validateRows(rows.map(storedRowInput), checks.product, {
      ...checks.options,
      knownEmails: usedEmails(db, campaign.environment, { excludeCampaignId: campaign.id }),
    });
    const counts: RevalidateCounts = { checked: 0, ready: 0, invalid: 0 };
    rows.forEach((row, i) => {
      const checked = result.rows[i];
      if (!checked || (row.state !== 'ready' && row.state !== 'invalid')) return;
      const values = storedValues(keepProductErrors(row.errors, checked));
      editRow(db, row.id, values, now);
      counts.checked += 1;
      if (values.errors.length > 0) counts.invalid += 1;
      else counts.ready += 1;
    });
    return counts;
  })();
}
