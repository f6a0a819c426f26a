// The browser shell hands the per-launch token in the page URL's fragment (`#token=…`), which the
// browser never sends to any server. It is read once, kept in memory, and removed from the address
// bar so it does not linger in history, bookmarks or screenshots.

export interface LocationLike {
  readonly href: string;
}

export interface HistoryLike {
  replaceState(data: unknown, unused: string, url?: string): void;
}

/**
 * The token from `#token=…`, or null; the URL without it, to put back in the address bar. A route
 * may follow it (`#token=…&/campaigns/c_1`) and stays in the fragment.
 */
export function splitToken(href: string): { token: string | null; cleanUrl: string } {
  const url = new URL(href);
  const match = /^#token=([^&]*)(?:&(.*))?$/.exec(url.hash);
  if (!match) return { token: null, cleanUrl: href };
  url.hash = match[2] ?? '';
  const token = decodeURIComponent(match[1] ?? '');
  return { token: token.length > 0 ? token : null, cleanUrl: url.toString() };
}

export interface TabStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const TAB_KEY = 'giftbatch.token';

/**
 * Takes the token out of the address bar. It is also kept in this tab's sessionStorage (never
 * shared with other tabs, gone when the tab closes) so that reloading the page keeps working.
 */
export function takeTokenFromAddressBar(location: LocationLike, history: HistoryLike, tab?: TabStorage): string | null {
  const { token, cleanUrl } = splitToken(location.href);
  if (token !== null) {
    history.replaceState(null, '', cleanUrl);
    tab?.setItem(TAB_KEY, token);
    return token;
  }
  return tab?.getItem(TAB_KEY) ?? null;
}
