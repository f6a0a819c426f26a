// Schema 5: a campaign's counts and totals kept as running tallies, so what the campaign screen and
// every progress event show costs the same for 100 rows and for 100,000 (issue 10: it read and
// summed every row, ten times a second during a send). SQLite keeps them itself, with triggers on
// every insert, change and delete of a recipient row, in the same transaction as the change: no
// path, process or crash can leave them out of step with the rows.
//
// recipient_tallies: per campaign, row state and amount currency ('' for a row with none): how many
//   rows, how many of them have an amount, the sum of those amounts, how many are flagged.
// charge_tallies: per campaign, row state, charged currency and number of decimals: the charged
//   texts added as integers ("23.46" → 2346 at scale 2) and how many. A text too long to add as an
//   integer (over 18 characters) is only counted as `oversized`, and an integer sum that overflows
//   turns into a float: the reader sees either and sums that campaign's texts exactly instead.
//
// Expired acceptances depend on the time asked about, so they are not tallied: a partial index
// keeps the ordered rows by expiry, and counting the expired ones reads only those.
//
// A later migration that rebuilds the recipients table must create these triggers again.
//
// campaigns.importing: who is still storing the campaign's rows ("host pid token"), or NULL once
// they are all there. The app's import worker stores a large file in parts, each its own short
// transaction, so the engine's own writes (a send's commits, an edit) never wait long behind one
// long transaction; a campaign is not shown until its last part is in, and one whose importer
// died is removed (repos/campaigns.ts discardUnfinishedImports).

const tallyOf = (row: 'NEW' | 'OLD', sign: '+' | '-') => /* sql */ `
  INSERT INTO recipient_tallies (campaign_id, state, currency, rows, priced, amount_minor, flagged)
    VALUES (${row}.campaign_id, ${row}.state, coalesce(${row}.currency, ''), ${sign}1,
      ${sign}(${row}.currency IS NOT NULL AND ${row}.amount_minor IS NOT NULL),
      ${sign}(CASE WHEN ${row}.currency IS NOT NULL THEN coalesce(${row}.amount_minor, 0) ELSE 0 END),
      ${sign}(${row}.discrepancies IS NOT NULL))
    ON CONFLICT DO UPDATE SET rows = rows + excluded.rows, priced = priced + excluded.priced,
      amount_minor = amount_minor + excluded.amount_minor, flagged = flagged + excluded.flagged;
  INSERT INTO charge_tallies (campaign_id, state, currency, scale, units, texts, oversized)
    SELECT ${row}.campaign_id, ${row}.state, coalesce(${row}.charged_currency, ''),
      CASE instr(${row}.charged_text, '.') WHEN 0 THEN 0 ELSE length(${row}.charged_text) - instr(${row}.charged_text, '.') END,
      ${sign}(CASE WHEN length(${row}.charged_text) <= 18 THEN CAST(replace(${row}.charged_text, '.', '') AS INTEGER) ELSE 0 END),
      ${sign}1, ${sign}(length(${row}.charged_text) > 18)
    WHERE ${row}.charged_text IS NOT NULL
    ON CONFLICT DO UPDATE SET units = units + excluded.units, texts = texts + excluded.texts, oversized = oversized + excluded.oversized;`;

export const sql = /* sql */ `
ALTER TABLE campaigns ADD COLUMN importing TEXT;

CREATE TABLE recipient_tallies (
  campaign_id  TEXT    NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  state        TEXT    NOT NULL,
  currency     TEXT    NOT NULL,
  rows         INTEGER NOT NULL,
  priced       INTEGER NOT NULL,
  amount_minor INTEGER NOT NULL,
  flagged      INTEGER NOT NULL,
  PRIMARY KEY (campaign_id, state, currency)
) STRICT, WITHOUT ROWID;

CREATE TABLE charge_tallies (
  campaign_id TEXT    NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  state       TEXT    NOT NULL,
  currency    TEXT    NOT NULL,
  scale       INTEGER NOT NULL,
  units       ANY     NOT NULL,
  texts       INTEGER NOT NULL,
  oversized   INTEGER NOT NULL,
  PRIMARY KEY (campaign_id, state, currency, scale)
) STRICT, WITHOUT ROWID;

-- The tallies of the rows there are.
INSERT INTO recipient_tallies (campaign_id, state, currency, rows, priced, amount_minor, flagged)
  SELECT campaign_id, state, coalesce(currency, ''), count(*),
    sum(currency IS NOT NULL AND amount_minor IS NOT NULL),
    sum(CASE WHEN currency IS NOT NULL THEN coalesce(amount_minor, 0) ELSE 0 END),
    sum(discrepancies IS NOT NULL)
  FROM recipients GROUP BY campaign_id, state, coalesce(currency, '');

INSERT INTO charge_tallies (campaign_id, state, currency, scale, units, texts, oversized)
  SELECT campaign_id, state, coalesce(charged_currency, ''),
    CASE instr(charged_text, '.') WHEN 0 THEN 0 ELSE length(charged_text) - instr(charged_text, '.') END AS scale,
    sum(CASE WHEN length(charged_text) <= 18 THEN CAST(replace(charged_text, '.', '') AS INTEGER) ELSE 0 END),
    count(*), sum(length(charged_text) > 18)
  FROM recipients WHERE charged_text IS NOT NULL
  GROUP BY campaign_id, state, coalesce(charged_currency, ''), scale;

CREATE TRIGGER recipients_tally_update
  AFTER UPDATE OF campaign_id, state, currency, amount_minor, discrepancies, charged_text, charged_currency ON recipients BEGIN
${tallyOf('OLD', '-')}
${tallyOf('NEW', '+')}
END;

CREATE TRIGGER recipients_tally_delete AFTER DELETE ON recipients BEGIN
${tallyOf('OLD', '-')}
END;

CREATE INDEX recipients_acceptance ON recipients (campaign_id, acceptance_expiry) WHERE state = 'ordered';
`;
