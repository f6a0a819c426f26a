// The catalog for the chosen country: searchable, price or range with currency, and the products
// that cannot be ordered by e-mail set aside behind a toggle, each with its reason. Records the
// service describes incompletely are always listed with their problem; one that lacks only its
// currency asks the organiser for it, and a product whose currency the service does not state says
// where its currency came from, with a way to change it.
import { useMemo, useState } from 'react';
import type { ProductDto } from '../../../../shared/contract.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ENVIRONMENT_LABELS } from '../../components/Header.tsx';
import { Message } from '../../components/Message.tsx';
import { formatPrice } from '../../lib/money-display.ts';
import { currencyOrigin, productLabel, splitProducts, unreadableLabel, unreadableMatchesSearch, type UnreadableProductDto } from '../../lib/products.ts';
import { useStores, useWizard } from '../../stores/hooks.ts';
import type { ProductStock } from '../../stores/wizard-store.ts';
import { CurrencyChooser } from './CurrencyChooser.tsx';

const QUESTION = "The service does not state this product's currency. Which currency are its amounts in?";

export function ProductPicker() {
  const stores = useStores();
  const w = stores.wizard.getState();
  const products = useWizard((s) => s.products);
  const unreadableAll = useWizard((s) => s.unreadable);
  const status = useWizard((s) => s.productsStatus);
  const error = useWizard((s) => s.productsError);
  const errorCode = useWizard((s) => s.productsErrorCode);
  const environment = useWizard((s) => s.environment);
  const currencyError = useWizard((s) => s.currencyError);
  const search = useWizard((s) => s.productSearch);
  const showUnavailable = useWizard((s) => s.showUnavailable);
  const productId = useWizard((s) => s.productId);
  const stock = useWizard((s) => s.stock);
  const country = useWizard((s) => s.country);
  const { orderable, unorderable } = useMemo(() => splitProducts(products, search), [products, search]);
  const unreadable = useMemo(() => unreadableAll.filter((u) => unreadableMatchesSearch(u, search)), [unreadableAll, search]);
  const busy = status === 'loading';
  const nothingOrderable = status === 'ready' && search.trim() === '' && orderable.length === 0 && (unorderable.length > 0 || unreadable.length > 0);

  return (
    <fieldset className="product-picker" data-testid="product-picker" data-status={status}>
      <legend>Gift card</legend>
      <div className="picker-tools">
        <label htmlFor="wiz-product-search" className="visually-hidden">
          Search products
        </label>
        <input
          id="wiz-product-search"
          type="search"
          placeholder="Search by name or brand"
          value={search}
          onChange={(e) => w.setProductSearch(e.target.value)}
          data-testid="wiz-product-search"
        />
        {unorderable.length > 0 && (
          <label className="check">
            <input type="checkbox" checked={showUnavailable} onChange={(e) => w.setShowUnavailable(e.target.checked)} data-testid="wiz-show-unavailable" />
            Show {unorderable.length} unavailable
          </label>
        )}
      </div>
      {busy && (
        <p className="muted" role="status">
          Loading the catalog for {country}…
        </p>
      )}
      {status === 'failed' && error && errorCode === 'service-auth' && (
        // The key was refused: said as that, with the way to the screen that mends it. The service's
        // own answer (the request, the HTTP status) stays folded, for support.
        <Message kind="error" testId="catalog-key-refused">
          <strong>The {ENVIRONMENT_LABELS[environment]} service refused the API key</strong>, so its catalog could not be read. Check
          the key set for {ENVIRONMENT_LABELS[environment]} (or enter a new one) under Environments &amp; key, then try again.
          <span className="actions actions-inline">
            <button type="button" className="button-primary" onClick={() => stores.app.getState().navigate({ name: 'environments' })} data-testid="catalog-open-environments">
              Open Environments &amp; key
            </button>
            <button type="button" onClick={() => void w.setCountry(country)}>
              Try again
            </button>
          </span>
          <details className="support-detail">
            <summary>The service&apos;s answer</summary>
            <span className="small">{error}</span>
          </details>
        </Message>
      )}
      {status === 'failed' && error && errorCode !== 'service-auth' && (
        <Message kind="error">
          Could not load the catalog: {error}{' '}
          <button type="button" onClick={() => void w.setCountry(country)}>
            Try again
          </button>
        </Message>
      )}
      {currencyError && (
        <Message kind="error" testId="currency-error">
          {currencyError}
        </Message>
      )}
      {status === 'ready' && orderable.length === 0 && unorderable.length === 0 && unreadable.length === 0 && (
        <EmptyState title={search ? 'No product matches' : `No products for ${country}`} testId="catalog-empty">
          <p>{search ? 'Try another word, or clear the search.' : `The service lists no product for ${country}. Choose another country; the catalog is per country.`}</p>
        </EmptyState>
      )}
      {nothingOrderable && (
        <Message kind="warning" testId="catalog-nothing-orderable">
          No product for {country} can be ordered as the service describes it yet.
          {unreadable.some((u) => u.needsCurrency) && ' Choose the currency of a product below whose record states none.'}
          {unorderable.length > 0 && ` ${unorderable.length} cannot be ordered by e-mail (“Show ${unorderable.length} unavailable” lists why).`}
        </Message>
      )}
      <div className="product-list" role="radiogroup" aria-label="Products">
        {orderable.map((p) => (
          <ProductOption
            key={p.id}
            product={p}
            country={country}
            busy={busy}
            selected={p.id === productId}
            stock={stock?.productId === p.id ? stock : null}
            onSelect={() => w.chooseProduct(p.id)}
          />
        ))}
      </div>
      {unreadable.length > 0 && <UnreadableList items={unreadable} country={country} busy={busy} />}
      {showUnavailable && unorderable.length > 0 && (
        <div className="product-list product-list-unavailable" aria-label="Unavailable products">
          {unorderable.map((p) => (
            <ProductOption key={p.id} product={p} country={country} busy={busy} selected={false} />
          ))}
        </div>
      )}
    </fieldset>
  );
}

function ProductOption({
  product: p,
  country,
  busy,
  selected,
  stock = null,
  onSelect,
}: {
  product: ProductDto;
  country: string;
  busy: boolean;
  selected: boolean;
  /** The supplier's stock of this product, once asked (when it was picked). */
  stock?: ProductStock | null;
  onSelect?: () => void;
}) {
  const unavailable = p.unorderableReason !== null;
  const id = `product-${p.id}`;
  return (
    <div
      className={`product${selected ? ' product-selected' : ''}${unavailable ? ' product-unavailable' : ''}`}
      data-testid="product-option"
      data-product-id={p.id}
      data-currency-source={p.currencySource}
    >
      <label className="product-choice" htmlFor={id}>
        <input id={id} type="radio" name="product" checked={selected} disabled={unavailable} onChange={onSelect} />
        <span className="product-main">
          <span className="product-name">{productLabel(p)}</span>
          <span className="muted small">
            {p.brand && p.brand !== p.name ? `${p.brand} · ` : ''}
            {p.price.kind === 'fixed' ? 'Fixed price' : 'Choose the amount'}
          </span>
          {unavailable && <span className="product-reason small">Cannot be ordered: {p.unorderableReason}</span>}
        </span>
        <span className="product-price num">{formatPrice(p.price)}</span>
      </label>
      {!unavailable && p.currencySource !== 'service' && <CurrencyNote product={p} country={country} busy={busy} />}
      {selected && stock?.inStock === false && (
        <div className="product-note" role="status" data-testid="stock-note">
          <p>
            <strong>Out of stock at the supplier</strong>
            {stock.message ? ` (the service says: ${stock.message})` : ''}. Its gifts cannot be sent until the supplier has stock again:
            choose another gift to send now.
          </p>
        </div>
      )}
    </div>
  );
}

/** "Currency not stated by the service: USD, as earlier orders were issued in — Change". */
function CurrencyNote({ product: p, country, busy }: { product: ProductDto; country: string; busy: boolean }) {
  const stores = useStores();
  const [changing, setChanging] = useState(false);
  return (
    <div className="product-note" data-testid="currency-note">
      {changing ? (
        <CurrencyChooser
          country={country}
          current={p.currency}
          question="Which currency are this product's amounts in?"
          busy={busy}
          onCancel={() => setChanging(false)}
          onChoose={(code) => {
            setChanging(false);
            void stores.wizard.getState().setCurrency(code, { choose: p.id });
          }}
        />
      ) : (
        <p>
          Currency not stated by the service: <strong>{p.currency}</strong>, {currencyOrigin(p)}. The first order confirms it.{' '}
          <button type="button" className="link" onClick={() => setChanging(true)} data-testid="currency-change" aria-label={`Change the currency of ${productLabel(p)}`}>
            Change
          </button>
        </p>
      )}
    </div>
  );
}

function UnreadableList({ items, country, busy }: { items: UnreadableProductDto[]; country: string; busy: boolean }) {
  const stores = useStores();
  const anyCurrency = items.some((u) => u.needsCurrency);
  return (
    <section className="unreadable" aria-labelledby="unreadable-title" data-testid="unreadable-products">
      <h2 id="unreadable-title">
        {items.length === 1 ? 'One product the service does not describe in full' : `${items.length} products the service does not describe in full`}
      </h2>
      <p className="muted small">
        Listed so that none goes missing.
        {anyCurrency && ' A currency you choose applies to every product of this catalog whose record states none; the first order of the campaign confirms it.'}
      </p>
      <div className="product-list">
        {items.map((u, i) => {
          const id = u.id;
          return (
            <div key={id ?? `unreadable-${i}`} className="product product-unreadable" data-testid="unreadable-product" data-product-id={id ?? ''} data-needs-currency={u.needsCurrency}>
              <div className="product-main">
                <span className="product-name">{unreadableLabel(u)}</span>
                {id !== null && u.name !== null && <span className="muted small">Product {id}</span>}
                {u.needsCurrency && id !== null ? (
                  <CurrencyChooser country={country} question={QUESTION} busy={busy} onChoose={(code) => void stores.wizard.getState().setCurrency(code, { choose: id })} />
                ) : (
                  <span className="product-reason small" data-testid="unreadable-problem">
                    Cannot be read: {u.problem}. {id === null ? 'Its record has no id, so it cannot be ordered.' : 'It cannot be ordered until the service describes it in full.'}
                  </span>
                )}
              </div>
            </div>
          );
        })}
      </div>
    </section>
  );
}
