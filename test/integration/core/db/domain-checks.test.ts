// The migrations are history and keep their own copies of the domain's words; the schema they end
// at must accept exactly the lists in shared/domain (issue 10). A new state, environment or pause
// reason needs a migration, and this says so.
import { describe, expect, it } from 'vitest';
import { ENVIRONMENTS, PAUSE_REASONS, SEND_STATES } from '../../../../shared/domain/campaigns.ts';
import { ROW_STATES } from '../../../../shared/domain/rows.ts';
import { SKIP_POLICIES } from '../../../../shared/domain/skips.ts';
import { tempDb } from '../../../support/db-seed.ts';

/** The closed list a column's own CHECK (column IN (…)) allows, from the table's SQL. */
function allowed(tableSql: string, column: string): string[] {
  const check = new RegExp(`\\b${column}\\s+TEXT\\b[^,]*?CHECK\\s*\\(\\s*${column}\\s+IN\\s*\\(([^)]*)\\)`, 's').exec(tableSql);
  if (!check?.[1]) throw new Error(`no CHECK (${column} IN (…)) in ${tableSql}`);
  return [...check[1].matchAll(/'([^']*)'/g)].map((m) => m[1] ?? '').sort();
}

describe('the latest schema and the domain lists', () => {
  it("the CHECK constraints accept exactly shared/domain's words", () => {
    const { db } = tempDb();
    const sql = (table: string) => db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(table) as string;
    const sorted = (list: readonly string[]) => [...list].sort();
    expect(allowed(sql('campaigns'), 'environment')).toEqual(sorted(ENVIRONMENTS));
    expect(allowed(sql('campaigns'), 'send_state')).toEqual(sorted(SEND_STATES));
    expect(allowed(sql('campaigns'), 'paused_reason')).toEqual(sorted(PAUSE_REASONS));
    expect(allowed(sql('recipients'), 'state')).toEqual(sorted(ROW_STATES));
    expect(allowed(sql('recipients'), 'skipped_by')).toEqual(sorted(SKIP_POLICIES));
  });
});
