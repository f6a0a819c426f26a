// The countries Giftbatch offers by name: the window's product picker and `giftbatch products`. The
// service lists products one country code at a time and has no list of countries; these are common
// ones (the built-in simulator sells in US, GB, DE, JP and KR), and any other two-letter code can be
// given. `currency` is the country's own: only an offer at the top of the list when the service does
// not state a product's currency, never assumed.
export const COUNTRIES: ReadonlyArray<{ code: string; name: string; currency: string }> = [
  { code: 'US', name: 'United States', currency: 'USD' },
  { code: 'GB', name: 'United Kingdom', currency: 'GBP' },
  { code: 'DE', name: 'Germany', currency: 'EUR' },
  { code: 'FR', name: 'France', currency: 'EUR' },
  { code: 'ES', name: 'Spain', currency: 'EUR' },
  { code: 'IT', name: 'Italy', currency: 'EUR' },
  { code: 'NL', name: 'Netherlands', currency: 'EUR' },
  { code: 'IE', name: 'Ireland', currency: 'EUR' },
  { code: 'CA', name: 'Canada', currency: 'CAD' },
  { code: 'AU', name: 'Australia', currency: 'AUD' },
  { code: 'JP', name: 'Japan', currency: 'JPY' },
  { code: 'KR', name: 'South Korea', currency: 'KRW' },
  { code: 'SG', name: 'Singapore', currency: 'SGD' },
  { code: 'IN', name: 'India', currency: 'INR' },
  { code: 'BR', name: 'Brazil', currency: 'BRL' },
  { code: 'MX', name: 'Mexico', currency: 'MXN' },
];

/** A country code as the service takes it: two capital letters (ISO 3166-1 alpha-2 shape). */
export function isCountryCode(text: string): boolean {
  return /^[A-Z]{2}$/.test(text);
}
