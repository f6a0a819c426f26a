// The campaign's rows: filter by state, search, and a windowed table fetched page by page.
import { useEffect, useState } from 'react';
import { plural } from '../../../../shared/domain/plural.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Message } from '../../components/Message.tsx';
import type { RowState } from '../../lib/rows.ts';
import { filterIsActive } from '../../stores/campaign-store.ts';
import { useCampaign, useStores } from '../../stores/hooks.ts';
import { RowsTable } from './RowsTable.tsx';

const FILTERS: ReadonlyArray<{ key: string; label: string; states: RowState[] | null }> = [
  { key: 'all', label: 'All', states: null },
  { key: 'to-send', label: 'To send', states: ['ready', 'sending'] },
  { key: 'ordered', label: 'Awaiting delivery', states: ['ordered'] },
  { key: 'delivered', label: 'Delivered', states: ['delivered'] },
  { key: 'problems', label: 'Problems', states: ['failed', 'cancelled', 'invalid'] },
  { key: 'skipped', label: 'Skipped', states: ['skipped'] },
];

const SEARCH_DELAY_MS = 250;

export function RowsSection() {
  const stores = useStores();
  const filter = useCampaign((s) => s.filter);
  const total = useCampaign((s) => s.total);
  const rowsError = useCampaign((s) => s.rowsError);
  const [search, setSearch] = useState(filter.search);
  const active = FILTERS.find((f) => JSON.stringify(f.states) === JSON.stringify(filter.states))?.key ?? 'all';

  useEffect(() => {
    if (search === stores.campaign.getState().filter.search) return;
    const id = window.setTimeout(() => stores.campaign.getState().setFilter({ search }), SEARCH_DELAY_MS);
    return () => window.clearTimeout(id);
  }, [search, stores]);

  return (
    <section className="rows-section" aria-labelledby="rows-title">
      <div className="title-row">
        <h2 id="rows-title">Recipients</h2>
        <span className="muted small" data-testid="rows-total">
          {plural(total, 'row')}
        </span>
      </div>
      <div className="toolbar">
        <div className="filters" role="group" aria-label="Show rows">
          {FILTERS.map((f) => (
            <button
              key={f.key}
              type="button"
              className="filter"
              aria-pressed={active === f.key}
              onClick={() => stores.campaign.getState().setFilter({ states: f.states })}
              data-testid={`rows-filter-${f.key}`}
            >
              {f.label}
            </button>
          ))}
        </div>
        <label className="search">
          <span className="visually-hidden">Search recipients</span>
          <input type="search" placeholder="Search name, e-mail, order id" value={search} onChange={(e) => setSearch(e.target.value)} data-testid="rows-search" />
        </label>
      </div>
      {rowsError && <Message kind="error">{rowsError}</Message>}
      {total === 0 ? (
        <EmptyState title={filterIsActive(filter) ? 'No row matches' : 'No rows'} level={3}>
          <p>{filterIsActive(filter) ? 'Choose another filter or clear the search.' : 'This campaign has no recipients.'}</p>
        </EmptyState>
      ) : (
        <RowsTable />
      )}
    </section>
  );
}
