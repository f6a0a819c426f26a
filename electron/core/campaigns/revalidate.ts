// Checking a campaign's unsent rows again against its product as the catalog has it now, in place
// (issue 11, item 3). A new import would mint new keys for every row, rows already ordered included,
// and pay them again; here every row keeps its key, and only rows that were never sent (ready,
// invalid) change: what was sent keeps what it was sent with.
import { toDecimal } from '../../../shared/domain/money.ts';
import { keepProductErrors, productChooser, validateRows } from '../../../shared/domain/validation.ts';
import type { Db } from '../db/open.ts';
import { setProductSnapshot, type Campaign, type ProductSnapshot } from '../db/repos/campaigns.ts';
import { editRow } from '../db/repos/recipient-edits.ts';
import { listCampaignRows, usedEmails } from '../db/repos/recipients.ts';
import { validationProduct } from './products.ts';

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
    const own = products.get(campaign.productId) ?? campaign.product;
    const product = validationProduct(campaign.productId, own);
    const chooseProduct = productChooser([...products].map(([id, snapshot]) => validationProduct(id, snapshot)));
    const defaultAmount = campaign.defaultAmountMinor != null ? { minor: campaign.defaultAmountMinor, currency: campaign.currency } : undefined;
    const result = validateRows(
      rows.map((r) => ({
        line: r.line,
        name: r.name ?? '',
        email: r.email ?? '',
        amount: r.amountMinor != null && r.currency ? toDecimal({ minor: r.amountMinor, currency: r.currency }) : '',
        message: r.message ?? '',
        columns: r.source ?? {},
        // Its own product by id, as the file named it.
        ...(r.productId !== null ? { product: String(r.productId) } : {}),
      })),
      product,
      {
        chooseProduct,
        ...(defaultAmount ? { defaultAmount } : {}),
        knownEmails: usedEmails(db, campaign.environment, { excludeCampaignId: campaign.id }),
        // Messages as they would be sent: a row whose message cannot be filled in stays invalid.
        defaultMessage: campaign.message,
      },
    );
    const counts: RevalidateCounts = { checked: 0, ready: 0, invalid: 0 };
    rows.forEach((row, i) => {
      const checked = result.rows[i];
      if (!checked || (row.state !== 'ready' && row.state !== 'invalid')) return;
      const validated = keepProductErrors(row.errors, checked);
      const errors = validated.errors.map((issue) => ({ field: issue.field, message: issue.message }));
      editRow(
        db,
        row.id,
        {
          name: validated.name || null,
          email: validated.email || null,
          amountMinor: validated.amount?.minor ?? null,
          currency: validated.amount?.currency ?? null,
          message: validated.message || null,
          errors,
          warnings: validated.warnings.map((issue) => ({ field: issue.field, message: issue.message })),
        },
        now,
      );
      counts.checked += 1;
      if (errors.length > 0) counts.invalid += 1;
      else counts.ready += 1;
    });
    return counts;
  })();
}
