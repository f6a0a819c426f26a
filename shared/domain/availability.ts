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
