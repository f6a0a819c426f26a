// Schema 12: a row left `sending` whose lookup by key came back empty when that proves nothing (the
// service's order list is not seen to reach back to its first send: campaigns/reconcile.ts ListReach)
// waits for a person, since when (recipients.held_at). A resume with the person's word
// (resendUnconfirmed) sends again only the rows held before it began, the ones the person was shown
// and looked up; a row held in that very run waits for its own look. A re-POST clears it. Additive:
// NULL for every row of an older schema, none of which was ever held.

export const sql = /* sql */ `
ALTER TABLE recipients ADD COLUMN held_at INTEGER CHECK (held_at IS NULL OR held_at >= 0);
`;
