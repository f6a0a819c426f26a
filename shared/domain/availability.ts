// What a pre-flight availability check says about stock, in words for the app and the CLI. The
// service's availability body is "not shown" in the spec: an answer we could not read is
// "unknown", never taken for "in stock".

export interface StockAnswer {
  /** Undefined or null: nothing in the answer said. */
  readonly inStock: boolean | null | undefined;
  /** The service's own words, when it gave some. */
  readonly message: string | null | undefined;
}

export function stockText(answer: StockAnswer): string {
  const said = answer.message ? ` (the service says: ${answer.message})` : '';
  if (answer.inStock === true) return `in stock${said}`;
  if (answer.inStock === false) return `out of stock${said}`;
  return `unknown: the service's availability answer does not say whether it is in stock${said}`;
}

/**
 * The stock line of a pre-flight report, in the app and the CLI alike; null when out of stock: that
 * is one of the pre-flight's problems, which gives the service's words already (both said the same
 * sentence, one after the other).
 */
export function stockNote(answer: StockAnswer): string | null {
  return answer.inStock === false ? null : `Stock: ${stockText(answer)}`;
}

/** One product's stock in a pre-flight: its name as checked (null when the record had none). */
export interface ProductStock {
  readonly productId: number;
  readonly name: string | null;
  readonly availability: StockAnswer | null;
}

/**
 * The stock lines of a pre-flight, in the app and the CLI alike: one per product the rows to send are
 * ordered as, each named ("Stock of Northwind Books: in stock"). A campaign with a gift per row said
 * only its own product's stock, even when no row used it. With no row to send, the campaign's own
 * product's line, as before. Out of stock: no line (stockNote); an answer not read: no line.
 */
export function stockLines(preflight: { readonly availability: StockAnswer | null; readonly byProduct: readonly ProductStock[] }): string[] {
  if (preflight.byProduct.length === 0) {
    const own = preflight.availability ? stockNote(preflight.availability) : null;
    return own === null ? [] : [own];
  }
  return preflight.byProduct.flatMap((p) =>
    p.availability === null || p.availability.inStock === false ? [] : [`Stock of ${p.name ?? `product ${p.productId}`}: ${stockText(p.availability)}`],
  );
}
