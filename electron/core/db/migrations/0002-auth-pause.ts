// Schema 2: a campaign can be paused because the service refused the API key ('auth'), which
// schema 1's CHECK did not allow (those pauses were recorded as 'preflight'; they are relabelled
// when their detail says so). SQLite cannot alter a CHECK, so the table is rebuilt (rebuildsTables:
// foreign keys off during the rebuild, every reference checked before commit).

export const sql = /* sql */ `
CREATE TABLE campaigns_v2 (
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
  paused_reason        TEXT    CHECK (paused_reason IN ('user', 'circuit-breaker', 'interrupted', 'preflight', 'auth')),
  paused_detail        TEXT,
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL,
  CHECK ((send_state = 'paused') = (paused_reason IS NOT NULL))
) STRICT;

INSERT INTO campaigns_v2 (id, name, environment, base_url, product_id, product_snapshot, sender_name, message,
    default_amount_minor, currency, send_state, paused_reason, paused_detail, created_at, updated_at)
  SELECT id, name, environment, base_url, product_id, product_snapshot, sender_name, message,
    default_amount_minor, currency, send_state,
    CASE WHEN paused_reason = 'preflight' AND paused_detail LIKE '%API key%' THEN 'auth' ELSE paused_reason END,
    paused_detail, created_at, updated_at
  FROM campaigns;

DROP TABLE campaigns;
ALTER TABLE campaigns_v2 RENAME TO campaigns;
CREATE INDEX campaigns_environment ON campaigns (environment, created_at);
`;
