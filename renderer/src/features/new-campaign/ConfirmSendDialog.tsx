// The last stop before money moves: how many, how much, where, and that orders are final.
import { useState } from 'react';
import { plural } from '../../../../shared/domain/plural.ts';
import { ENVIRONMENT_LABELS } from '../../components/Header.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { Message } from '../../components/Message.tsx';
import { chargedCurrencies, chargeNote } from '../../lib/charge-currency.ts';
import { formatTotals } from '../../lib/money-display.ts';
import { useCampaigns, useStores, useWizard } from '../../stores/hooks.ts';
import { selectedProduct } from '../../stores/wizard-store.ts';
import { CurrencyConfirmation } from './CostSummary.tsx';
import { preflightProductTotals, ProductTotals } from './ProductTotals.tsx';

/** Under the total: the first order goes alone when others follow it (one gift has no others). */
export function firstOrderNote(count: number): string | null {
  return count > 1 ? 'The first order goes alone and is checked against what its row asked before the others follow.' : null;
}

/** Rows of the draft that still need fixing and stay behind (none: nothing to say). */
export function notSentNote(invalid: number): string | null {
  if (invalid <= 0) return null;
  return `${plural(invalid, 'row')} that still ${invalid === 1 ? 'needs' : 'need'} fixing will not be sent.`;
}

export function ConfirmSendDialog() {
  const stores = useStores();
  const open = useWizard((s) => s.confirmOpen);
  const preflight = useWizard((s) => s.preflight);
  const draft = useWizard((s) => s.draft);
  const product = useWizard((s) => (s.draft && s.draft.productId === s.productId ? selectedProduct(s) : null));
  const sending = useWizard((s) => s.sending);
  const sendError = useWizard((s) => s.sendError);
  const catalog = useWizard((s) => s.products);
  const byProduct = preflightProductTotals(preflight?.byProduct ?? [], catalog);
  const w = stores.wizard.getState();
  const count = preflight?.rowsToSend ?? 0;
  const simulated = draft?.environment === 'simulator';
  const repeats = preflight?.repeatRecipients.count ?? 0;
  // People this campaign gives more than one gift (the organiser chose one gift per row).
  const several = preflight?.repeatsInCampaign ?? { people: 0, rows: 0 };
  const [allowRepeats, setAllowRepeats] = useState(false);
  // The account's currency as earlier orders of this environment were charged (no service call, no rate guessed).
  const campaigns = useCampaigns((s) => s.campaigns);
  const charge = draft ? chargeNote(preflight?.totals ?? [], chargedCurrencies(campaigns, draft.environment)) : null;

  const send = async (): Promise<void> => {
    const sent = await w.send({ allowRepeats });
    if (sent) stores.app.getState().navigate({ name: 'campaign', id: sent.id });
  };

  return (
    <Dialog open={open} title={`Send ${plural(count, 'gift')}?`} onClose={() => w.cancelConfirm()} testId="confirm-dialog">
      <p className="confirm-amount">
        <span data-testid="confirm-count">{count.toLocaleString('en-US')}</span> gift{count === 1 ? '' : 's'} for a total of{' '}
        <strong data-testid="confirm-total">{formatTotals(preflight?.totals ?? [], 'nothing')}</strong>
      </p>
      {charge &&
        (charge.estimate ? (
          <Message kind="warning" testId="confirm-charge-currency">
            <p>{charge.text}</p>
          </Message>
        ) : (
          <p className="muted small" data-testid="confirm-charge-currency">
            {charge.text}
          </p>
        ))}
      <ProductTotals list={byProduct} label="Gifts per product" rowsText={(n) => plural(n, 'gift')} testId="confirm-by-product" />
      {draft && (
        <p>
          Campaign “{draft.name}” · {byProduct.length > 1 ? `${byProduct.length} products` : (draft.productName ?? `product ${draft.productId}`)} ·{' '}
          {ENVIRONMENT_LABELS[draft.environment]}
        </p>
      )}
      <p className="confirm-final" data-testid="confirm-final">
        <strong>Orders are final.</strong> Once sent, a gift cannot be recalled or refunded
        {simulated ? ' (on the Simulator nothing real is ordered or charged).' : ', and your balance is charged.'}
      </p>
      {product && product.currencySource !== 'service' ? (
        <CurrencyConfirmation product={product} testId="confirm-currency-note" />
      ) : (
        firstOrderNote(count) && <p className="muted small">{firstOrderNote(count)}</p>
      )}
      {draft && notSentNote(draft.counts.invalid) && <p className="muted">{notSentNote(draft.counts.invalid)}</p>}
      {several.people > 0 && (
        <Message kind="warning" testId="confirm-repeats-in-campaign">
          <p>
            <strong>
              {plural(several.people, 'person', 'people')} would get more than one gift
            </strong>{' '}
            from this campaign ({plural(several.rows, 'extra gift')}): their address{several.people === 1 ? ' is' : 'es are'} on several rows
            and one gift per row was chosen. Skip the extra rows first to send one gift per person.
          </p>
        </Message>
      )}
      {repeats > 0 && (
        <Message kind="warning" testId="confirm-repeats">
          <p>
            {plural(repeats, 'recipient')} {repeats === 1 ? 'already has' : 'already have'} a gift ordered from this environment in another campaign (line
            {repeats === 1 ? '' : 's'} {preflight?.repeatRecipients.lines.join(', ')}). Nothing is sent without your yes below; otherwise skip{' '}
            {repeats === 1 ? 'that row' : 'those rows'} first.
          </p>
          <label className="check">
            <input type="checkbox" checked={allowRepeats} onChange={(e) => setAllowRepeats(e.target.checked)} data-testid="confirm-allow-repeats" />
            Send {repeats === 1 ? 'this person' : 'them'} a second gift
          </label>
        </Message>
      )}
      {sendError && <Message kind="error">{sendError}</Message>}
      <div className="dialog-actions">
        <button type="button" onClick={() => w.cancelConfirm()} autoFocus>
          Cancel
        </button>
        <button type="button" className="button-primary" disabled={sending || count === 0 || !preflight?.ok} onClick={() => void send()} data-testid="confirm-send">
          {sending ? 'Starting…' : `Send ${count.toLocaleString('en-US')} now`}
        </button>
      </div>
    </Dialog>
  );
}
