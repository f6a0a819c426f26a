// Schema 7: a gift per row (issue 13). A file may name each row's product (speakers 50, volunteers
// 25): the row keeps its product id (NULL: the campaign's own product, as every row before this
// schema), and the campaign keeps a snapshot of each other product its rows were checked against,
// as it keeps its own in campaigns.product_snapshot. And a row a follow-up campaign took names that
// campaign (followed_up_in): it is sent from there, so it is never retried or followed up again here.

export const sql = /* sql */ `
ALTER TABLE recipients ADD COLUMN product_id INTEGER;
ALTER TABLE recipients ADD COLUMN followed_up_in TEXT;

CREATE TABLE campaign_products (
  campaign_id TEXT    NOT NULL REFERENCES campaigns (id),
  product_id  INTEGER NOT NULL,
  snapshot    TEXT    NOT NULL CHECK (json_valid(snapshot)),
  PRIMARY KEY (campaign_id, product_id)
) STRICT;
`;
