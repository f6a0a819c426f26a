// Schema 8: whether a campaign chooses a gift per row (campaigns.gift_per_row), kept when it is
// made: its file had a gift column (the import's mapping found a Product column), it follows up a
// campaign that did, or a row was later given another gift. Until now the review guessed it from the
// rows it had loaded, so a reopened draft whose Product column named only the campaign's own product
// showed no Gift column (and no way to move a row to another gift). Additive: a campaign of an older
// schema chooses a gift per row when what it stored says so (a row ordered as another product, a
// snapshot of one, or a row whose gift cell named no product); one whose column named only its own
// product cannot be told apart and stays 0.

export const sql = /* sql */ `
ALTER TABLE campaigns ADD COLUMN gift_per_row INTEGER NOT NULL DEFAULT 0 CHECK (gift_per_row IN (0, 1));

UPDATE campaigns SET gift_per_row = 1
 WHERE EXISTS (SELECT 1 FROM campaign_products p WHERE p.campaign_id = campaigns.id)
    OR EXISTS (SELECT 1 FROM recipients r WHERE r.campaign_id = campaigns.id AND r.product_id IS NOT NULL)
    OR EXISTS (
      SELECT 1 FROM recipients r, json_each(r.errors) e
       WHERE r.campaign_id = campaigns.id AND r.errors IS NOT NULL AND json_extract(e.value, '$.field') = 'product'
    );
`;
