// Schema 3: who is sending a campaign right now. The app and a giftbatch command (or two commands)
// share the data folder; each order's key keeps two senders from paying twice, but both would POST
// every row and show each other's progress as their own. A sender holds a campaign's lease for a
// short time and renews it while it sends; another process is refused while the lease is live and
// its holder alive.

export const sql = /* sql */ `
CREATE TABLE send_leases (
  campaign_id TEXT    PRIMARY KEY REFERENCES campaigns (id),
  owner       TEXT    NOT NULL CHECK (length(owner) > 0),
  host        TEXT    NOT NULL,
  pid         INTEGER NOT NULL CHECK (pid > 0),
  taken_at    INTEGER NOT NULL,
  until       INTEGER NOT NULL CHECK (until >= taken_at)
) STRICT;
`;
