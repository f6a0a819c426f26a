// Schema 7: a gift per row (issue 13). A file may name each row's product (speakers 50, volunteers
// 25): the row keeps its product id (NULL: the campaign's own product, as every row before this
// schema), and the campaign keeps a snapshot of each other product its rows were checked against,
// as it keeps its own in campaigns.product_snapshot.

export const sql = /* sql */ `
ALTER TABLE recipients ADD COLUMN product_id INTEGER;

CREATE TABLE campaign_products (
  campaign_id TEXT    NOT NULL REFERENCES campaigns (id),
  product_id  INTEGER NOT NULL,
  snapshot    TEXT    NOT NULL CHECK (json_valid(snapshot)),
  PRIMARY KEY (campaign_id, product_id)
) STRICT;
`;
