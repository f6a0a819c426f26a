// The gift service's order and item statuses (spec section 3) in the words the window shows; the
// service's own code stays at hand for support (a title, and the Details of an unknown one). The one
// place these words are defined: every screen that shows a status takes it from here.

export interface StatusWords {
  /** What a person reads. */
  text: string;
  /** The service's code as it came, and what it means, for support. */
  title: string;
}

const ORDER_WORDS: Readonly<Record<string, string>> = {
  COMPLETED: 'Paid',
  PAYMENT_PENDING: 'Waiting for payment',
  PAYMENT_EXPIRED: 'Payment expired',
  CANCELLED: 'Cancelled',
};

// PENDING is "not yet delivered" (spec section 3): issuance may be under way, but the item may as
// well wait days for its recipient to enter details, or for a supplier out of stock. Not "Delivering",
// which says it is on its way: "Waiting", which fits the recipients table's Item column at 1280 wide
// ("Awaiting delivery", the rows' filter's words, was cut to "Awaiting deli…").
const ITEM_WORDS: Readonly<Record<string, string>> = {
  PENDING: 'Waiting',
  COMPLETED: 'Delivered',
  CANCELLED: 'Cancelled',
};

function words(table: Readonly<Record<string, string>>, what: 'order' | 'item', code: string): StatusWords {
  const text = Object.hasOwn(table, code) ? table[code] : undefined;
  // A status the spec does not list is shown as the service wrote it: no guess at what it means.
  if (text === undefined) return { text: code, title: `The service's ${what} status: ${code} (not one Giftbatch knows)` };
  return { text, title: `The service's ${what} status: ${code}` };
}

/** An order's status (COMPLETED, PAYMENT_PENDING, PAYMENT_EXPIRED, CANCELLED) in plain words. */
export function orderStatusWords(code: string): StatusWords {
  return words(ORDER_WORDS, 'order', code);
}

/** An order item's status (PENDING, COMPLETED, CANCELLED) in plain words. */
export function itemStatusWords(code: string): StatusWords {
  return words(ITEM_WORDS, 'item', code);
}
