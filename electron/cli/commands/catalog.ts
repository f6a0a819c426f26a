// giftbatch products / validate: read the catalog and check a CSV against a product, storing nothing.
import { readFileSync } from 'node:fs';
import { parseDecimal, toDecimal, type Money } from '../../../shared/domain/money.ts';
import type { Engine } from '../../core/engine.ts';
import type { Connection } from '../../core/connections.ts';
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
    availability: p.availability,
    delivery_methods: p.deliveryMethods,
    ...price,
  };
}

const priceText = (p: Product) =>
  p.price.kind === 'fixed' ? `${p.currency} ${toDecimal(p.price.amount)}` : `${p.currency} ${toDecimal(p.price.min)}–${toDecimal(p.price.max)}`;

const PRODUCTS_HELP = `Usage: giftbatch products --country CC [--json]
Lists the products that can be ordered by e-mail in a country (ids differ per account and environment).`;

export async function productsCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, { country: { type: 'string' } }, PRODUCTS_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const country = parsed.values.country?.toUpperCase();
  if (!country || !/^[A-Z]{2}$/.test(country)) throw new UsageError(`--country takes a two-letter country code, e.g. US.\n\n${PRODUCTS_HELP}`);
  return withEngine(common, async (engine) => {
    const connection = await engine.connections.get(common.env, { ...(common.baseUrl ? { baseUrl: common.baseUrl } : {}) });
    const catalog = await engine.catalog(connection, country);
    if (common.json) {
      printJson(catalog.orderable.map(productJson));
      return EXIT.ok;
    }
    if (catalog.orderable.length === 0) out(`No product can be ordered by e-mail in ${country}.`);
    for (const p of catalog.orderable) out(`${String(p.id).padStart(8)}  ${priceText(p).padEnd(22)}  ${[p.brand, p.name].filter(Boolean).join(' — ')}`);
    for (const { product, reason } of catalog.unorderable) say(`(not orderable) ${product.id} ${product.name ?? ''}: ${reason}`);
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

export async function productFor(engine: Engine, connection: Connection, productText: string | undefined, help: string, country?: string) {
  const productId = positiveInt(productText, '--product');
  if (productId === undefined) throw new UsageError(`--product ID is required (see \`giftbatch products --country CC\`).\n\n${help}`);
  return engine.findProduct(connection, productId, country);
}

const VALIDATE_HELP = `Usage: giftbatch validate FILE.csv --product ID [--amount N] [--country CC] [--json]
Checks every row against the product without creating a campaign.`;

export async function validateCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, { product: { type: 'string' }, amount: { type: 'string' }, country: { type: 'string' } }, VALIDATE_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const bytes = readCsvFile(parsed.positionals[0], VALIDATE_HELP);
  return withEngine(common, async (engine) => {
    const connection = await engine.connections.get(common.env, { ...(common.baseUrl ? { baseUrl: common.baseUrl } : {}) });
    const product = await productFor(engine, connection, parsed.values.product, VALIDATE_HELP, parsed.values.country?.toUpperCase());
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
