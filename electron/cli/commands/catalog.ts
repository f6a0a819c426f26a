// giftbatch products / validate: read the catalog and check a CSV against a product, storing nothing.
import { readFileSync } from 'node:fs';
import { isCurrencyCode, parseDecimal, toDecimal, type Money } from '../../../shared/domain/money.ts';
import type { Engine } from '../../core/engine.ts';
import { serviceName, type Connection } from '../../core/connections.ts';
import type { Product } from '../../core/service/index.ts';
import { EXIT, UsageError } from '../exit-codes.ts';
import { commonOf, out, parseCommand, positiveInt, printJson, say, withEngine } from '../options.ts';

export function productJson(p: Product) {
  const price =
    p.price.kind === 'fixed'
      ? { amount: toDecimal(p.price.amount) }
      : { min_amount: toDecimal(p.price.min), max_amount: toDecimal(p.price.max) };
  return {
    id: p.id,
    name: p.name ?? null,
    brand: p.brand ?? null,
    currency: p.currency,
    // 'service': the product's record states it; 'stated' (--currency) or 'learned' (earlier orders): it does not.
    currency_source: p.currencySource,
    availability: p.availability,
    delivery_methods: p.deliveryMethods,
    ...price,
  };
}

const priceText = (p: Product) =>
  p.price.kind === 'fixed' ? `${p.currency} ${toDecimal(p.price.amount)}` : `${p.currency} ${toDecimal(p.price.min)}–${toDecimal(p.price.max)}`;

const PRODUCTS_HELP = `Usage: giftbatch products --country CC [--currency CCC] [--json]
Lists the products that can be ordered by e-mail in a country (ids differ per account and environment).
--currency states the currency of products whose record gives none (the service's spec shows no
currency field); by default the one earlier orders of the product or country were issued in.`;

/** `--currency CCC`: the organiser's word for products whose record states no currency. */
export function currencyOption(text: string | undefined): { currency?: string } {
  if (text === undefined) return {};
  const code = text.trim().toUpperCase();
  if (!isCurrencyCode(code)) throw new UsageError(`--currency takes a three-letter currency code, e.g. USD (got "${text}").`);
  return { currency: code };
}

/** Where a product's currency came from, for the person reading the list. */
export function currencyNote(p: Product): string | null {
  if (p.currencySource === 'stated') return `the service does not state product ${p.id}'s currency: ${p.currency} as given by --currency; the first order confirms it`;
  if (p.currencySource === 'learned') return `the service does not state product ${p.id}'s currency: ${p.currency} as earlier orders were issued in (--currency to change); the first order confirms it`;
  return null;
}

export async function productsCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, { country: { type: 'string' }, currency: { type: 'string' } }, PRODUCTS_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const country = parsed.values.country?.toUpperCase();
  if (!country || !/^[A-Z]{2}$/.test(country)) throw new UsageError(`--country takes a two-letter country code, e.g. US.\n\n${PRODUCTS_HELP}`);
  const currency = currencyOption(parsed.values.currency);
  return withEngine(common, async (engine) => {
    const connection = await engine.connections.get(common.env, { ...(common.baseUrl ? { baseUrl: common.baseUrl } : {}) });
    const catalog = await engine.catalog(connection, country, currency);
    if (common.json) {
      // Records we could not read are listed too, each with its problem: never dropped silently.
      printJson([
        ...catalog.orderable.map(productJson),
        ...catalog.unreadable.map((u) => ({ id: u.id, name: u.name, problem: u.problem, needs_currency: u.needsCurrency })),
      ]);
      return EXIT.ok;
    }
    if (catalog.orderable.length === 0) {
      out(`No product can be ordered by e-mail in ${country} from ${serviceName(connection)}${catalog.unreadable.length > 0 ? ` (${catalog.unreadable.length} product record(s) could not be read, see below)` : ''}.`);
    }
    for (const p of catalog.orderable) out(`${String(p.id).padStart(8)}  ${priceText(p).padEnd(22)}  ${[p.brand, p.name].filter(Boolean).join(' — ')}`);
    for (const p of catalog.orderable) {
      const note = currencyNote(p);
      if (note) say(`note: ${note}`);
    }
    for (const { product, reason } of catalog.unorderable) say(`(not orderable) ${product.id} ${product.name ?? ''}: ${reason}`);
    for (const u of catalog.unreadable) {
      say(`(unreadable) ${u.id ?? '?'} ${u.name ?? ''}: ${u.problem}${u.needsCurrency ? '. Give it with --currency CCC' : ''}`);
    }
    return EXIT.ok;
  });
}

export function readCsvFile(path: string | undefined, help: string): Uint8Array {
  if (!path) throw new UsageError(`Name the CSV file.\n\n${help}`);
  try {
    return readFileSync(path);
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`);
  }
}

export function amountOption(text: string | undefined, product: Product): Money | null {
  if (text === undefined) return null;
  try {
    return parseDecimal(text, product.currency);
  } catch (error) {
    throw new UsageError(`--amount ${text}: ${(error as Error).message}.`);
  }
}

export async function productFor(engine: Engine, connection: Connection, values: { product?: string; country?: string; currency?: string }, help: string) {
  const productId = positiveInt(values.product, '--product');
  if (productId === undefined) throw new UsageError(`--product ID is required (see \`giftbatch products --country CC\`).\n\n${help}`);
  const product = await engine.findProduct(connection, productId, values.country?.toUpperCase(), currencyOption(values.currency));
  const note = currencyNote(product);
  if (note) say(`note: ${note}.`);
  return product;
}

const VALIDATE_HELP = `Usage: giftbatch validate FILE.csv --product ID [--amount N] [--country CC] [--currency CCC] [--json]
Checks every row against the product without creating a campaign.`;

export async function validateCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, { product: { type: 'string' }, amount: { type: 'string' }, country: { type: 'string' }, currency: { type: 'string' } }, VALIDATE_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const bytes = readCsvFile(parsed.positionals[0], VALIDATE_HELP);
  return withEngine(common, async (engine) => {
    const connection = await engine.connections.get(common.env, { ...(common.baseUrl ? { baseUrl: common.baseUrl } : {}) });
    const product = await productFor(engine, connection, parsed.values, VALIDATE_HELP);
    const preview = engine.preview(connection, bytes, product, { defaultAmount: amountOption(parsed.values.amount, product) });
    const { totals } = preview.validation;
    const errors = [
      ...preview.parsed.problems.filter((p) => !preview.validation.rows.some((r) => r.line === p.line)).map((p) => ({ line: p.line, field: 'file', message: p.message })),
      ...preview.validation.rows.flatMap((r) => r.errors.map((e) => ({ line: r.line, field: e.field, message: e.message }))),
    ];
    const warnings = preview.validation.rows.flatMap((r) => r.warnings.map((w) => ({ line: r.line, field: w.field, message: w.message })));
    if (common.json) {
      printJson({
        rows: totals.rows,
        valid: totals.valid,
        invalid: totals.invalid,
        duplicate_emails: totals.duplicateEmails,
        known_emails: totals.knownEmails,
        encoding: preview.parsed.encoding,
        delimiter: preview.parsed.delimiter,
        totals: totals.totals.map((m) => ({ currency: m.currency, amount: toDecimal(m) })),
        errors,
        warnings,
      });
    } else {
      out(`${totals.rows} rows: ${totals.valid} valid, ${totals.invalid} invalid, ${totals.duplicateEmails} duplicate e-mails (${preview.parsed.encoding}, delimiter ${JSON.stringify(preview.parsed.delimiter)})`);
      for (const t of totals.totals) out(`Total of valid rows: ${t.currency} ${toDecimal(t)}`);
      for (const e of errors) out(e.message);
      for (const w of warnings) out(`warning: ${w.message}`);
    }
    return errors.length > 0 ? EXIT.rowsFailed : EXIT.ok;
  });
}
