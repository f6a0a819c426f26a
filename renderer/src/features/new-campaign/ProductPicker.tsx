// The catalog for the chosen country: searchable, price or range with currency, and the products
// that cannot be ordered by e-mail set aside behind a toggle, each with its reason.
import { useMemo } from 'react';
import type { ProductDto } from '../../../../shared/contract.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Message } from '../../components/Message.tsx';
import { formatPrice } from '../../lib/money-display.ts';
import { productLabel, splitProducts } from '../../lib/products.ts';
import { useStores, useWizard } from '../../stores/hooks.ts';

export function ProductPicker() {
  const stores = useStores();
  const w = stores.wizard.getState();
  const products = useWizard((s) => s.products);
  const status = useWizard((s) => s.productsStatus);
  const error = useWizard((s) => s.productsError);
  const search = useWizard((s) => s.productSearch);
  const showUnavailable = useWizard((s) => s.showUnavailable);
  const productId = useWizard((s) => s.productId);
  const country = useWizard((s) => s.country);
  const { orderable, unorderable } = useMemo(() => splitProducts(products, search), [products, search]);

  return (
    <fieldset className="product-picker" data-testid="product-picker">
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
      {status === 'loading' && <p className="muted">Loading the catalog for {country}…</p>}
      {status === 'failed' && error && (
        <Message kind="error">
          Could not load the catalog: {error}{' '}
          <button type="button" onClick={() => void w.setCountry(country)}>
            Try again
          </button>
        </Message>
      )}
      {status === 'ready' && orderable.length === 0 && unorderable.length === 0 && (
        <EmptyState title={search ? 'No product matches' : `No products for ${country}`}>
          <p>{search ? 'Try another word, or clear the search.' : 'Choose another country; the catalog is per country.'}</p>
        </EmptyState>
      )}
      <div className="product-list" role="radiogroup" aria-label="Products">
        {orderable.map((p) => (
          <ProductOption key={p.id} product={p} selected={p.id === productId} onSelect={() => w.chooseProduct(p.id)} />
        ))}
      </div>
      {showUnavailable && unorderable.length > 0 && (
        <div className="product-list product-list-unavailable" aria-label="Unavailable products">
          {unorderable.map((p) => (
            <ProductOption key={p.id} product={p} selected={false} />
          ))}
        </div>
      )}
    </fieldset>
  );
}

function ProductOption({ product: p, selected, onSelect }: { product: ProductDto; selected: boolean; onSelect?: () => void }) {
  const unavailable = p.unorderableReason !== null;
  const id = `product-${p.id}`;
  return (
    <label className={`product${selected ? ' product-selected' : ''}${unavailable ? ' product-unavailable' : ''}`} htmlFor={id} data-testid="product-option" data-product-id={p.id}>
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
  );
}
