// Schema 10: a row's amount as the file (or the person's last edit) wrote it, when it did not become
// the row's amount (recipients.amount_text): "25" for a gift whose fixed price is 10, "ten", or any
// amount of a row whose gift the file named wrongly. Before, such a row kept amount_minor NULL and
// nothing else, so the row editor opened with an empty amount and saving it quietly took the
// product's price or the campaign's default; "check rows again" did the same. Now both start from
// what the file said. Additive: a row of an older schema, or one whose amount was read, has NULL.

export const sql = /* sql */ `
ALTER TABLE recipients ADD COLUMN amount_text TEXT;
`;
