// Schema 1: campaigns, their recipient rows, an append-only event log, and app settings.
//
// Conventions: every table is STRICT; timestamps are integer milliseconds since the epoch (UTC);
// money is an integer count of minor units beside its ISO 4217 code; rates the service reports
// are kept as their decimal text so no float ever stands between us and the invoice.
// The CHECKs are the cheap ones: closed lists of states, and the facts a state implies (an ordered
// row has an order id, a sending row has its frozen request body).

export const sql = /* sql */ `
CREATE TABLE campaigns (
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
  paused_reason        TEXT    CHECK (paused_reason IN ('user', 'circuit-breaker', 'interrupted', 'preflight')),
  paused_detail        TEXT,
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL,
  -- A pause always says why; nothing else carries a reason.
  CHECK ((send_state = 'paused') = (paused_reason IS NOT NULL))
) STRICT;

CREATE INDEX campaigns_environment ON campaigns (environment, created_at);

CREATE TABLE recipients (
  id                    INTEGER PRIMARY KEY,
  campaign_id           TEXT    NOT NULL REFERENCES campaigns (id),
  line                  INTEGER NOT NULL CHECK (line >= 0),
  name                  TEXT,
  email                 TEXT,
  amount_minor          INTEGER CHECK (amount_minor IS NULL OR amount_minor > 0),
  currency              TEXT    CHECK (currency IS NULL OR (length(currency) = 3 AND currency = upper(currency))),
  message               TEXT,
  state                 TEXT    NOT NULL CHECK (state IN
                          ('invalid', 'ready', 'sending', 'ordered', 'delivered', 'failed', 'cancelled', 'skipped')),
  external_reference_id TEXT    NOT NULL UNIQUE CHECK (length(external_reference_id) BETWEEN 1 AND 40),
  request_body          TEXT,
  order_id              INTEGER,
  order_status          TEXT,
  item_id               INTEGER,
  item_status           TEXT,
  charged_minor         INTEGER,
  charged_currency      TEXT    CHECK (charged_currency IS NULL OR (length(charged_currency) = 3 AND charged_currency = upper(charged_currency))),
  exchange_rate         TEXT    CHECK (exchange_rate IS NULL OR (exchange_rate GLOB '[0-9]*' AND exchange_rate NOT GLOB '*[^0-9.]*')),
  rate_from             TEXT,
  rate_to               TEXT,
  fee_rate              TEXT    CHECK (fee_rate IS NULL OR (fee_rate GLOB '[0-9]*' AND fee_rate NOT GLOB '*[^0-9.]*')),
  acceptance_expiry     INTEGER,
  attempts              INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_error            TEXT,
  errors                TEXT    CHECK (errors IS NULL OR json_valid(errors)),
  warnings              TEXT    CHECK (warnings IS NULL OR json_valid(warnings)),
  source                TEXT    CHECK (source IS NULL OR json_valid(source)),
  created_at            INTEGER NOT NULL,
  sent_at               INTEGER,
  ordered_at            INTEGER,
  delivered_at          INTEGER,
  updated_at            INTEGER NOT NULL,
  next_attempt_at       INTEGER,
  -- A row that may be sent has what the POST needs.
  CHECK (state IN ('invalid', 'skipped') OR (email IS NOT NULL AND amount_minor IS NOT NULL AND currency IS NOT NULL)),
  -- Once a POST may have left, its exact bytes are on record (every retry re-sends them).
  CHECK (state <> 'sending' OR request_body IS NOT NULL),
  -- An order exists for these states, so we know its id.
  CHECK (state NOT IN ('ordered', 'delivered', 'cancelled') OR order_id IS NOT NULL),
  CHECK ((charged_minor IS NULL) = (charged_currency IS NULL))
) STRICT;

-- The de-duplication key is the row's identity at the service: once minted it never changes.
CREATE TRIGGER recipients_key_immutable BEFORE UPDATE OF external_reference_id ON recipients
WHEN NEW.external_reference_id IS NOT OLD.external_reference_id
BEGIN
  SELECT RAISE(ABORT, 'a recipient''s external_reference_id never changes');
END;

-- Every retry of a POST re-sends the same bytes. The body may only be rebuilt while no order can
-- exist under the key (the row is ready or invalid again, after a definite rejection and an edit).
CREATE TRIGGER recipients_body_frozen BEFORE UPDATE OF request_body ON recipients
WHEN OLD.request_body IS NOT NULL AND NEW.request_body IS NOT OLD.request_body
     AND OLD.state NOT IN ('ready', 'invalid')
BEGIN
  SELECT RAISE(ABORT, 'a sent request body never changes');
END;

CREATE INDEX recipients_campaign_state ON recipients (campaign_id, state);
CREATE INDEX recipients_order ON recipients (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX recipients_email ON recipients (lower(email)) WHERE email IS NOT NULL;

CREATE TABLE events (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  campaign_id  TEXT    NOT NULL REFERENCES campaigns (id),
  recipient_id INTEGER REFERENCES recipients (id),
  at           INTEGER NOT NULL,
  kind         TEXT    NOT NULL CHECK (kind GLOB '[a-z]*' AND kind NOT GLOB '*[^a-z-]*'),
  detail       TEXT    CHECK (detail IS NULL OR json_valid(detail))
) STRICT;

CREATE INDEX events_campaign ON events (campaign_id, id);

-- The log is evidence (what was sent, when, with which outcome): it is only ever appended to.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: an event cannot be changed');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are append-only: an event cannot be deleted');
END;

CREATE TABLE settings (
  key        TEXT    PRIMARY KEY CHECK (length(key) > 0),
  value      TEXT    NOT NULL CHECK (json_valid(value)),
  updated_at INTEGER NOT NULL
) STRICT;
`;
