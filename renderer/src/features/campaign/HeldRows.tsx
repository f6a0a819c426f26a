// The rows a campaign holds for a person (summary.heldRows; usually it paused 'unconfirmed' on them,
// but a pause of the person's or the circuit breaker's can come in the same run): left mid-send, not
// found under their references, but the service's order list is not seen to reach back to them. For each, the person looks the
// reference up in the service's own records: an order found there is recorded here by its number
// ("Record its order", rows:recordOrder); none found, Resume with "Send them again".
import { useEffect, useState } from 'react';
import type { CampaignSummary, RowDto } from '../../../../shared/contract.ts';
import { plural } from '../../../../shared/domain/plural.ts';
import { useCampaign, useStores } from '../../stores/hooks.ts';

/**
 * Whether the campaign waits on held rows a person can act on now: paused with rows held, whatever
 * paused it (a pause of the person's, or the circuit breaker, can come in the run that held them).
 */
export function showsHeldRows(summary: CampaignSummary): boolean {
  return summary.sendState === 'paused' && !summary.running && summary.heldRows > 0;
}

/** Under the held rows listed, when there are more: how many, and how they come into view. */
export function heldMore(more: number): string {
  const rows = `${plural(more, 'more row')} ${more === 1 ? 'is' : 'are'}`;
  return `…and ${rows} held, to look up the same way: each appears here as one above is recorded.`;
}

export function HeldRows({ summary }: { summary: CampaignSummary }) {
  const stores = useStores();
  const held = useCampaign((s) => s.held);
  const heldTotal = useCampaign((s) => s.heldTotal);
  const busy = useCampaign((s) => s.busy);
  const sending = summary.counts.sending;
  useEffect(() => {
    void stores.campaign.getState().loadHeld();
  }, [stores, summary.id, sending]);
  if (held.length === 0) return null;
  return (
    <section className="card held-rows" aria-labelledby="held-title" data-testid="held-rows">
      <h2 id="held-title">Rows to look up at the service</h2>
      <p className="muted small">
        Look each reference up in the service&apos;s own records. Found an order: enter its number and record it. None there: press Resume and choose
        &ldquo;Send them again&rdquo;.
      </p>
      <ul className="held-list">
        {held.map((row) => (
          <HeldRow key={row.id} row={row} disabled={busy !== null} onRecord={(orderId) => stores.campaign.getState().recordOrder(row.id, orderId)} />
        ))}
      </ul>
      {heldTotal > held.length && (
        <p className="muted small" data-testid="held-more">
          {heldMore(heldTotal - held.length)}
        </p>
      )}
    </section>
  );
}

export function HeldRow({ row, disabled, onRecord }: { row: RowDto; disabled: boolean; onRecord: (orderId: number) => Promise<boolean> }) {
  const [text, setText] = useState('');
  const orderId = /^\d+$/.test(text.trim()) ? Number(text.trim()) : null;
  return (
    <li className="held-row" data-testid="held-row" data-line={row.line}>
      <span>
        Line {row.line}: {row.name ?? row.email ?? '—'}
        {row.name && row.email ? <span className="muted"> · {row.email}</span> : null}
      </span>
      <span className="mono" title="The reference its request carried (external_reference_id)">
        {row.externalReferenceId}
      </span>
      <form
        className="held-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (orderId !== null) void onRecord(orderId);
        }}
      >
        <label>
          <span className="visually-hidden">Order number found at the service for line {row.line}</span>
          <input
            type="text"
            inputMode="numeric"
            placeholder="Order number"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={text.trim() !== '' && orderId === null}
            data-testid="held-order-id"
          />
        </label>
        <button type="submit" className="button-small" disabled={disabled || orderId === null} data-testid="held-record">
          Record its order
        </button>
      </form>
    </li>
  );
}
