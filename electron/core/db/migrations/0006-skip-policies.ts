// Schema 6: a row the import left out by policy says which (issue 13): its address repeats an
// earlier line of the same campaign, or its recipient already has a gift from an earlier campaign
// of the environment. NULL for every other row, including one the organiser skipped. The list is
// shared/domain/skips.ts's SKIP_POLICIES.

export const sql = /* sql */ `
ALTER TABLE recipients ADD COLUMN skipped_by TEXT CHECK (skipped_by IN ('repeat-in-campaign', 'earlier-campaign'));
`;
