// The product the generated rows are validated against: the simulator's USD 5–500 range product,
// so amounts are read and range-checked (the costlier path), with a default for empty cells.
import type { ProductSnapshot } from '../../electron/core/db/repos/campaigns.ts';
import type { Product } from '../../electron/core/service/index.ts';
import type { Money } from '../../shared/domain/money.ts';
import type { ProductForValidation } from '../../shared/domain/validation.ts';

export const BENCH_PRODUCT_ID = 1001;
export const DEFAULT_AMOUNT: Money = { minor: 2500, currency: 'USD' };

export const benchProduct: Product = {
  id: BENCH_PRODUCT_ID,
  name: 'Bench gift card',
  brand: 'Bench',
  countryCode: 'US',
  currency: 'USD',
  currencySource: 'service',
  availability: 'ON_SALE',
  deliveryMethods: ['EMAIL'],
  price: { kind: 'range', min: { minor: 500, currency: 'USD' }, max: { minor: 50_000, currency: 'USD' } },
  raw: {},
};

export const benchSnapshot: ProductSnapshot = {
  priceKind: 'range',
  minMinor: 500,
  maxMinor: 50_000,
  name: 'Bench gift card',
  currency: 'USD',
  deliveryMethods: ['EMAIL'],
  availability: 'ON_SALE',
};

export const benchValidationProduct: ProductForValidation = {
  id: BENCH_PRODUCT_ID,
  currency: 'USD',
  price: { kind: 'range', min: { minor: 500, currency: 'USD' }, max: { minor: 50_000, currency: 'USD' } },
};
