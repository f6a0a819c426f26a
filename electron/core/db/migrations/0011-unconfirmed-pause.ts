// Schema 11: a campaign may pause as 'unconfirmed' (campaigns.paused_reason): rows left mid-send whose
// lookup by key came back empty when that proves nothing, because the service's order list is not
// seen to reach back to their first send (campaigns/reconcile.ts ListReach). Nothing else changes;
// SQLite cannot widen a CHECK in place, so the table is rebuilt with every column it has since
// schema 9, values copied as they are.

export const sql = /* sql */ `
CREATE TABLE campaigns_v11 (
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
  paused_reason        TEXT    CHECK (paused_reason IN ('user', 'circuit-breaker', 'interrupted', 'preflight', 'auth', 'mismatch', 'refused', 'unconfirmed')),
  paused_detail        TEXT,
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL,
  -- Which account (API key) the campaign was sent under, as scrypt$salt$hash: never the key, and the
  -- key cannot be recovered from it. Set at the first send; another key is refused unless confirmed.
  account_fingerprint  TEXT    CHECK (account_fingerprint IS NULL OR account_fingerprint GLOB 'scrypt$*$*'),
  importing            TEXT,
  gift_per_row         INTEGER NOT NULL DEFAULT 0 CHECK (gift_per_row IN (0, 1)),
  last_polled_at       INTEGER CHECK (last_polled_at IS NULL OR last_polled_at >= 0),
  CHECK ((send_state = 'paused') = (paused_reason IS NOT NULL))
) STRICT;

INSERT INTO campaigns_v11 (id, name, environment, base_url, product_id, product_snapshot, sender_name, message,
    default_amount_minor, currency, send_state, paused_reason, paused_detail, created_at, updated_at,
    account_fingerprint, importing, gift_per_row, last_polled_at)
  SELECT id, name, environment, base_url, product_id, product_snapshot, sender_name, message,
    default_amount_minor, currency, send_state, paused_reason, paused_detail, created_at, updated_at,
    account_fingerprint, importing, gift_per_row, last_polled_at
  FROM campaigns;

DROP TABLE campaigns;
ALTER TABLE campaigns_v11 RENAME TO campaigns;
CREATE INDEX campaigns_environment ON campaigns (environment, created_at);
`;
