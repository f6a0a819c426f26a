// Schema 9: when the service was last asked about a campaign's orders (campaigns.last_polled_at,
// epoch ms), set by every poll round that read the statuses of its undelivered orders to the end
// (poller.ts), whether by the schedule, Check now or `giftbatch poll`. The campaign screen and
// `giftbatch status` say "Last checked …" from it; before, only the next round's time was known
// (held in memory by the scheduler), and no row kept the time it was last asked about (a row's
// updated_at moves only when its order changed). Additive: a campaign of an older schema, or one
// never polled, has NULL and shows no "Last checked".

export const sql = /* sql */ `
ALTER TABLE campaigns ADD COLUMN last_polled_at INTEGER CHECK (last_polled_at IS NULL OR last_polled_at >= 0);
`;
