// The countries offered in the product picker: one list for the window and the CLI, in shared/domain.
export { COUNTRIES, isCountryCode } from '../../../shared/domain/countries.ts';
