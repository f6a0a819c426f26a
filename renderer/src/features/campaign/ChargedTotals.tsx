// What the balance was charged, per currency (never summed across currencies), with the rate the
// service applied when the product's currency differs from the account's, and the parts of it that
// bought no gift: orders later cancelled, and gifts whose recipient link expired unaccepted.
import { useMemo } from 'react';
import type { CampaignSummary } from '../../../../shared/contract.ts';
import { Totals } from '../../components/Money.tsx';
import { exchangeRates, formatRate } from '../../lib/money-display.ts';
import { useCampaign } from '../../stores/hooks.ts';

export function ChargedTotals({ summary }: { summary: CampaignSummary }) {
  const rowsByIndex = useCampaign((s) => s.rowsByIndex);
  const rates = useMemo(() => exchangeRates(rowsByIndex.values()), [rowsByIndex]);
  return (
    <section className="card" aria-labelledby="charged-title" data-testid="charged">
      <h2 id="charged-title">Charged</h2>
      <p className="big-number">
        <Totals list={summary.charged} empty="Nothing yet" testId="charged-total" stated />
      </p>
      {summary.unchargedOrders > 0 && (
        <p className="small" data-testid="charged-unstated">
          So far: {summary.unchargedOrders === 1 ? "1 order's charge is" : `${summary.unchargedOrders} orders' charges are`} not stated by the service yet
          and not in this total. The next check of the orders reads {summary.unchargedOrders === 1 ? 'it' : 'them'} (Check now does it at once).
        </p>
      )}
      {rates.length > 0 && (
        <p className="small" data-testid="exchange-rate">
          Exchange rate: {rates.map((r) => formatRate(r.from, r.to, r.rate)).join(' · ')}
        </p>
      )}
      {summary.chargedCancelled.length > 0 && (
        <p className="small" data-testid="charged-cancelled">
          Of which <Totals list={summary.chargedCancelled} stated /> went to orders later cancelled or never paid
          (no gift delivered). Ask the service about those charges.
        </p>
      )}
      {summary.chargedExpired.length > 0 && (
        <p className="small" data-testid="charged-expired">
          Of which <Totals list={summary.chargedExpired} stated /> went to gifts whose recipient link expired unaccepted
          (the order stands, but the recipient can no longer take it). Ask the service about those charges.
        </p>
      )}
      <dl className="facts small">
        <dt>Still to send</dt>
        <dd>
          {summary.remaining.length > 0 ? (
            <Totals list={summary.remaining} testId="charged-remaining" />
          ) : (
            // No amount left: a dash, and why under the figures (not "nothing", read as an amount), as the cost card does.
            <span className="num" data-testid="charged-remaining">
              —
            </span>
          )}
        </dd>
      </dl>
      {summary.remaining.length === 0 && (
        <p className="muted small" data-testid="charged-none-left">
          No row is left to send.
        </p>
      )}
    </section>
  );
}
