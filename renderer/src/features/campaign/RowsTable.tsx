// Every row of the campaign with its state, order and item status, charged amount and expiry, and a
// flag where the service's answer disagreed with what the row asked (both values shown). Charges
// show exactly as the service stated them. Only the rows in view are in the DOM; the store fetches
// the pages they fall on.
import { memo, useCallback } from 'react';
import type { RowDto } from '../../../../shared/contract.ts';
import { RowAmount } from '../../components/Money.tsx';
import { SkipReason } from '../../components/SkipReason.tsx';
import { StateChip } from '../../components/StateChip.tsx';
import { VirtualList } from '../../components/VirtualList.tsx';
import { useNow } from '../../components/useNow.ts';
import { formatStated } from '../../lib/money-display.ts';
import { expiryView, flagView, invalidReason, issuesFor, rowStateLabel } from '../../lib/rows.ts';
import { itemStatusWords, orderStatusWords, type StatusWords } from '../../lib/service-status.ts';
import { giftPerRow } from '../../stores/campaign-store.ts';
import { useCampaign, useStores } from '../../stores/hooks.ts';

export const ROW_HEIGHT = 48;

export function RowsTable() {
  const stores = useStores();
  const total = useCampaign((s) => s.total);
  const rowsByIndex = useCampaign((s) => s.rowsByIndex);
  const showProducts = useCampaign(giftPerRow);
  const now = useNow(30_000);
  const onRange = useCallback((start: number, end: number) => stores.campaign.getState().setRange(start, end), [stores]);
  const renderRow = useCallback(
    (index: number) => {
      const row = rowsByIndex.get(index);
      return row ? <RowView key={row.id} row={row} index={index} now={now} showProduct={showProducts} /> : <Placeholder key={`p${index}`} index={index} />;
    },
    [rowsByIndex, now, showProducts],
  );
  return (
    <VirtualList
      total={total}
      rowHeight={ROW_HEIGHT}
      renderRow={renderRow}
      onRangeChange={onRange}
      className={`grid-table rows-table${showProducts ? ' rows-table-products' : ''}`}
      label="Recipients"
      testId="rows-table"
      header={
        <div className="grid-row grid-head" role="row">
          <span role="columnheader">Line</span>
          <span role="columnheader">Recipient</span>
          {showProducts && <span role="columnheader">Gift</span>}
          <span role="columnheader">Amount</span>
          <span role="columnheader">State</span>
          <span role="columnheader">Order</span>
          <span role="columnheader">Item</span>
          <span role="columnheader">Charged</span>
          <span role="columnheader">Details</span>
        </div>
      }
    />
  );
}

/** A service status in plain words; the service's code is the title, for support. */
function ServiceStatus({ words, className, testId }: { words: StatusWords; className: string; testId: string }) {
  return (
    <span className={className} title={words.title} data-testid={testId}>
      {words.text}
    </span>
  );
}

function Placeholder({ index }: { index: number }) {
  return (
    <div className="grid-row grid-row-placeholder" role="row" aria-rowindex={index + 2} style={{ height: ROW_HEIGHT }} aria-busy="true">
      <span role="cell" className="muted">…</span>
    </div>
  );
}

/** `showProduct`: the campaign's rows are ordered as several products, so each row names its gift. */
export const RowView = memo(function RowView({ row, index, now, showProduct }: { row: RowDto; index: number; now: number; showProduct: boolean }) {
  const expiry = expiryView(row, now);
  const flag = flagView(row);
  const invalid = invalidReason(row);
  return (
    <div
      className={`grid-row${flag?.kind === 'mismatch' ? ' grid-row-mismatch' : expiry?.expired || flag ? ' grid-row-flagged' : ''}`}
      role="row"
      aria-rowindex={index + 2}
      style={{ height: ROW_HEIGHT }}
      data-testid="row"
      data-row-id={row.id}
      data-line={row.line}
      data-status={row.state}
      data-email={row.email ?? ''}
      data-flagged={flag ? flag.kind : undefined}
    >
      <span role="cell" className="num muted">
        {row.line}
      </span>
      <span role="cell" className="cell">
        <span className="cell-value">{row.name}</span>
        <span className="cell-sub">{row.email}</span>
      </span>
      {showProduct && (
        <span role="cell" className="cell">
          <span className="cell-value cell-product" title={row.productName ?? undefined} data-testid="row-product">
            {issuesFor(row.errors, 'product').length > 0 ? '—' : (row.productName ?? `Product ${row.productId}`)}
          </span>
        </span>
      )}
      <span role="cell" className="cell num">
        <span className="cell-value">
          <RowAmount row={row} />
        </span>
        {flag?.issuedDiffers && row.issued && (
          <span className="cell-error" data-testid="row-issued">
            issued {formatStated(row.issued)}
          </span>
        )}
      </span>
      <span role="cell">
        <StateChip state={row.state} label={rowStateLabel(row)} />
      </span>
      <span role="cell" className="cell">
        <span className="cell-value mono">{row.orderId ?? '—'}</span>
        {row.orderStatus && <ServiceStatus words={orderStatusWords(row.orderStatus)} className="cell-sub" testId="row-order-status" />}
      </span>
      <span role="cell" className="cell">
        {row.itemStatus ? <ServiceStatus words={itemStatusWords(row.itemStatus)} className="cell-value" testId="row-item-status" /> : <span className="cell-value">—</span>}
      </span>
      <span role="cell" className="num" title={row.charged ? 'As the service stated it' : undefined}>
        {row.charged ? formatStated(row.charged) : '—'}
      </span>
      <span role="cell" className="cell">
        {flag ? (
          <span className={`row-flag row-flag-${flag.kind}`} data-testid="row-flag" data-kind={flag.kind} title={flag.detail}>
            <span aria-hidden="true">⚠ </span>
            {flag.text}
            <span className="visually-hidden"> {flag.detail}</span>
          </span>
        ) : expiry ? (
          <span className={expiry.expired ? 'cell-error' : 'cell-sub'} data-testid={expiry.expired ? 'expiry-expired' : 'expiry'}>
            {expiry.text}
          </span>
        ) : row.state === 'skipped' && row.skippedBy !== null ? (
          <SkipReason policy={row.skippedBy} />
        ) : invalid !== null ? (
          <span className="cell-error" title={invalid} data-testid="row-invalid-reason">
            {invalid}
          </span>
        ) : row.lastError && row.state !== 'delivered' ? (
          <span className={row.state === 'failed' ? 'cell-error' : 'cell-sub'} title={row.lastError}>
            {row.lastError}
          </span>
        ) : row.attempts > 1 ? (
          <span className="cell-sub">{row.attempts} attempts</span>
        ) : null}
      </span>
    </div>
  );
});
