// A file of several gifts (a gift per row): each product with its rows and their face value per
// currency, for the import step's preview, the review's cost and the confirmation. Shown only when
// more than one product is used; one product is the campaign's own and needs no list.
import type { MoneyDto, ProductDto } from '../../../../shared/contract.ts';
import { Totals } from '../../components/Money.tsx';
import { productNameFor } from '../../lib/products.ts';
import type { Preflight } from '../../stores/wizard-store.ts';

export interface ProductTotal {
  productId: number;
  name: string;
  rows: number;
  totals: readonly MoneyDto[];
}

/** The pre-flight's rows to send per product, named from the catalog when the wizard has it, else as the engine recorded them. */
export function preflightProductTotals(byProduct: Preflight['byProduct'], catalog: readonly ProductDto[]): ProductTotal[] {
  return byProduct.map((p) => ({ productId: p.productId, name: productNameFor(p.productId, catalog, p.name), rows: p.rows, totals: p.totals }));
}

/** `rowsText`: a product's rows in words ("2 ready", "1 gift"). */
export function ProductTotals({ list, label, rowsText, testId }: { list: readonly ProductTotal[]; label: string; rowsText: (rows: number) => string; testId: string }) {
  if (list.length < 2) return null;
  return (
    <div className="product-totals" data-testid={testId}>
      <p className="product-totals-title">{label}</p>
      <ul aria-label={label}>
        {list.map((p) => (
          <li key={p.productId} data-testid="product-total" data-product-id={p.productId}>
            <span className="product-total-name">{p.name}</span>
            <span className="product-total-rows muted">{rowsText(p.rows)}</span>
            <Totals list={p.totals} />
          </li>
        ))}
      </ul>
    </div>
  );
}
