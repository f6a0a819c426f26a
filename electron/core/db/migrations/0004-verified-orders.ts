// Schema 4: every order answer is checked against what the row asked (issue 9). A row keeps what
// the service says it issued (the item's price, as received) and charged (the exact decimal text
// of total_price_charged.amount, never rounded), and the disagreements found, each with both
// values. A campaign can be paused because an answer disagreed with the request ('mismatch'), or
// because the service refused several orders in a row with the same answer ('refused': no balance,
// product off sale): SQLite cannot alter a CHECK, so campaigns is rebuilt as in schema 2, with the
// fingerprint of the account it is sent under. A send lease can carry a pause asked by another process.

export const sql = /* sql */ `
ALTER TABLE recipients ADD COLUMN issued_amount TEXT
  CHECK (issued_amount IS NULL OR length(issued_amount) BETWEEN 1 AND 64);
ALTER TABLE recipients ADD COLUMN issued_currency TEXT
  CHECK (issued_currency IS NULL OR length(issued_currency) BETWEEN 1 AND 16);
ALTER TABLE recipients ADD COLUMN charged_text TEXT
  CHECK (charged_text IS NULL OR (charged_text GLOB '[0-9]*' AND charged_text NOT GLOB '*[^0-9.]*'));
ALTER TABLE recipients ADD COLUMN discrepancies TEXT
  CHECK (discrepancies IS NULL OR json_valid(discrepancies));

-- Rows recorded before schema 4 were charged in whole minor units: their exact text is that amount.
UPDATE recipients SET charged_text = CASE
    WHEN charged_currency IN ('BIF','CLP','DJF','GNF','ISK','JPY','KMF','KRW','PYG','RWF','UGX','UYI','VND','VUV','XAF','XOF','XPF')
      THEN CAST(charged_minor AS TEXT)
    WHEN charged_currency IN ('BHD','IQD','JOD','KWD','LYD','OMR','TND')
      THEN printf('%d.%03d', charged_minor / 1000, charged_minor % 1000)
    ELSE printf('%d.%02d', charged_minor / 100, charged_minor % 100)
  END
  WHERE charged_minor IS NOT NULL AND charged_minor >= 0;

CREATE INDEX recipients_flagged ON recipients (campaign_id) WHERE discrepancies IS NOT NULL;

-- A pause asked from another process (the app pausing what a giftbatch command sends): the holder
-- reads it when it renews its lease, and stops.
ALTER TABLE send_leases ADD COLUMN stop_requested_at INTEGER;

CREATE TABLE campaigns_v4 (
  id                   TEXT    PRIMARY KEY CHECK (id GLOB 'c_*' AND length(id) BETWEEN 3 AND 40),
  name                 TEXT    NOT NULL CHECK (length(name) > 0),
  environment          TEXT    NOT NULL CHECK (environment IN ('simulator', 'sandbox', 'production')),
  base_url             TEXT    NOT NULL,
  product_id           INTEGER NOT NULL,
  product_snapshot     TEXT    NOT NULL CHECK (json_valid(product_snapshot)),
  sender_name          TEXT    NOT NULL,
  message              TEXT,
  default_amount_minor INTEGER CHECK (default_amount_minor IS NULL OR default_amount_minor > 0),
  currency             TEXT    NOT NULL CHECK (length(currency) = 3 AND currency = upper(currency)),
  send_state           TEXT    NOT NULL DEFAULT 'draft'
                               CHECK (send_state IN ('draft', 'sending', 'paused', 'done')),
  paused_reason        TEXT    CHECK (paused_reason IN ('user', 'circuit-breaker', 'interrupted', 'preflight', 'auth', 'mismatch', 'refused')),
  paused_detail        TEXT,
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL,
  -- Which account (API key) the campaign was sent under, as scrypt$salt$hash: never the key, and the
  -- key cannot be recovered from it. Set at the first send; another key is refused unless confirmed.
  account_fingerprint  TEXT    CHECK (account_fingerprint IS NULL OR account_fingerprint GLOB 'scrypt$*$*'),
  CHECK ((send_state = 'paused') = (paused_reason IS NOT NULL))
) STRICT;

INSERT INTO campaigns_v4 (id, name, environment, base_url, product_id, product_snapshot, sender_name, message,
    default_amount_minor, currency, send_state, paused_reason, paused_detail, created_at, updated_at)
  SELECT id, name, environment, base_url, product_id, product_snapshot, sender_name, message,
    default_amount_minor, currency, send_state, paused_reason, paused_detail, created_at, updated_at
  FROM campaigns;

DROP TABLE campaigns;
ALTER TABLE campaigns_v4 RENAME TO campaigns;
CREATE INDEX campaigns_environment ON campaigns (environment, created_at);
`;
