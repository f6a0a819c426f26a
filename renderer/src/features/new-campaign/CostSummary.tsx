// What sending will cost, per currency, and anything the pre-flight check found in the way; and,
// when the service does not state the product's currency, that the first order confirms it.
import { stockLines } from '../../../../shared/domain/availability.ts';
import type { ProductDto } from '../../../../shared/contract.ts';
import { Message } from '../../components/Message.tsx';
import { Totals } from '../../components/Money.tsx';
import { currencyOrigin } from '../../lib/products.ts';
import { useWizard } from '../../stores/hooks.ts';
import { selectedProduct } from '../../stores/wizard-store.ts';
import { preflightProductTotals, ProductTotals } from './ProductTotals.tsx';

/** The product's currency where the service does not state it, and what the first order does about it. */
export function CurrencyConfirmation({ product, testId }: { product: ProductDto | null; testId?: string }) {
  if (!product || product.currencySource === 'service') return null;
  return (
    <Message kind="info" testId={testId}>
      The service does not state this product's currency: the amounts are in <strong>{product.currency}</strong>, {currencyOrigin(product)}. The first
      order goes alone and confirms it; if the service issues anything else, sending pauses after that one gift.
    </Message>
  );
}

export function CostSummary() {
  const preflight = useWizard((s) => s.preflight);
  const status = useWizard((s) => s.preflightStatus);
  const draft = useWizard((s) => s.draft);
  // Known while the wizard that made the draft is open (a draft reopened from the list has its country's catalog but no product chosen).
  const product = useWizard((s) => (s.draft && s.draft.productId === s.productId ? selectedProduct(s) : null));
  const catalog = useWizard((s) => s.products);
  const counts = draft?.counts;
  // One line per product the rows use, named: the campaign's own product's stock said nothing of a gift per row's others.
  const stock = preflight ? stockLines(preflight) : [];
  return (
    <section className="card cost" aria-labelledby="cost-title" data-testid="cost-summary" data-status={status}>
      <h2 id="cost-title">Cost</h2>
      {preflight ? (
        <>
          <dl className="facts">
            <dt>Gifts to send</dt>
            <dd className="num" data-testid="cost-count">
              {preflight.rowsToSend}
            </dd>
            <dt>Total face value</dt>
            <dd>
              {preflight.totals.length > 0 ? (
                <Totals list={preflight.totals} testId="cost-total" />
              ) : (
                // No amount to add up: a dash, and why under the figures (not "nothing", read as an amount).
                <span className="num" data-testid="cost-total">
                  —
                </span>
              )}
            </dd>
            {counts && counts.invalid > 0 && (
              <>
                <dt>Need fixing (not sent)</dt>
                <dd className="num" data-testid="cost-invalid">
                  {counts.invalid}
                </dd>
              </>
            )}
            {counts && counts.skipped > 0 && (
              <>
                <dt>Skipped</dt>
                <dd className="num">{counts.skipped}</dd>
              </>
            )}
          </dl>
          {preflight.totals.length === 0 && (
            <p className="muted small" data-testid="cost-none-ready">
              No row is ready to send yet, so there is no face value to pay.
            </p>
          )}
          <ProductTotals
            list={preflightProductTotals(preflight.byProduct, catalog)}
            label="Gifts to send per product"
            rowsText={(n) => `${n} to send`}
            testId="cost-by-product"
          />
          <p className="muted small">
            Charged in your account currency at the service's exchange rate; the charged amount shows per row once ordered.
          </p>
          <CurrencyConfirmation product={product} testId="cost-currency-note" />
          {stock.length > 0 && (
            <div data-testid="cost-stock">
              {stock.map((line) => (
                <p key={line} className="small">
                  {line}
                </p>
              ))}
            </div>
          )}
          {preflight.problems.length > 0 && (
            <Message kind="error" testId="preflight-problems">
              <ul>
                {preflight.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </Message>
          )}
        </>
      ) : (
        <p className="muted">{status === 'loading' ? 'Checking the product and the amounts…' : 'No cost yet.'}</p>
      )}
    </section>
  );
}
