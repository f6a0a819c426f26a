// giftbatch products / validate: read the catalog and check a recipients file (CSV or workbook)
// against a product, storing nothing.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { CallInput, CallOutput, ProductDto } from '../../../shared/contract.ts';
import { COUNTRIES, isCountryCode } from '../../../shared/domain/countries.ts';
import { missingColumns, type ColumnMapping } from '../../../shared/domain/csv/headers.ts';
import { notAListMessage } from '../../../shared/domain/csv/not-a-list.ts';
import { BLANK_FILE, CHOOSE_UNDER_COLUMNS, isBlankFile } from '../../../shared/domain/csv/table.ts';
import { isCurrencyCode } from '../../../shared/domain/money.ts';
import { plural } from '../../../shared/domain/plural.ts';
import { sheetFilledRows } from '../../../shared/domain/sheet-words.ts';
import { DefaultAmountError, unmappedMessage } from '../../core/app/handlers-campaigns.ts';
import { SheetChoiceNeeded } from '../../core/workbook/index.ts';
import { EXIT, UsageError } from '../exit-codes.ts';
import { issueInCliWords } from '../status.ts';
import { COMMON_HELP, commonOf, out, parseCommand, positiveInt, printJson, say, withService } from '../options.ts';

export function productJson(p: ProductDto) {
  const price = p.price.kind === 'fixed' ? { amount: p.price.amount.amount } : { min_amount: p.price.min.amount, max_amount: p.price.max.amount };
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

const priceText = (p: ProductDto) =>
  p.price.kind === 'fixed' ? `${p.currency} ${p.price.amount.amount}` : `${p.currency} ${p.price.min.amount}–${p.price.max.amount}`;

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
export function currencyNote(p: ProductDto): string | null {
  if (p.currencySource === 'stated') return `the service does not state product ${p.id}'s currency: ${p.currency} as given by --currency; the first order confirms it`;
  if (p.currencySource === 'learned') return `the service does not state product ${p.id}'s currency: ${p.currency} as earlier orders were issued in (--currency to change); the first order confirms it`;
  return null;
}

/** One line of the products table, the header's too: the columns stay under their titles. */
const productLine = (id: string, price: string, product: string): string => `${id.padStart(8)}  ${price.padEnd(22)}  ${product}`;

const KNOWN_COUNTRIES = COUNTRIES.map((c) => `${c.code} (${c.name})`).join(', ');

/**
 * `--country CC`, required: the service lists products one country at a time and offers no list of
 * countries, so the message names the countries the app knows of (any other code works too).
 */
function countryOption(text: string | undefined): string {
  const code = text?.trim().toUpperCase() ?? '';
  if (isCountryCode(code)) return code;
  const problem =
    text === undefined
      ? '--country takes a two-letter country code: the service lists products one country at a time and has no call that lists its countries.'
      : countryProblem(text);
  throw new UsageError(
    `${problem}\nFor example: giftbatch products --country US\nCountries the app knows of (any other two-letter code can be given too): ${KNOWN_COUNTRIES}.\n\n${PRODUCTS_HELP}`,
  );
}

/** What a --country that is not a two-letter code gets told, naming the code of a country given by its name. */
function countryProblem(text: string): string {
  const named = COUNTRIES.find((c) => c.name.toUpperCase() === text.trim().toUpperCase());
  return `--country takes a two-letter country code${named ? `: ${named.code} for ${named.name}` : ''} (got "${text}").`;
}

/** `products US`: the country goes after --country (was ignored, or "--country ... is required"). */
function noProductsArgument(given: string): string {
  const code = given.trim().toUpperCase();
  return `products takes no argument; name the country with --country ${isCountryCode(code) ? code : 'CC'} (got "${given}").`;
}

export async function productsCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, { country: { type: 'string' }, currency: { type: 'string' } }, PRODUCTS_HELP, COMMON_HELP, noProductsArgument);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const country = countryOption(parsed.values.country);
  const currency = currencyOption(parsed.values.currency);
  return withService(common, {}, async (cli) => {
    const catalog = await cli.call('products:list', { environment: common.env, country, ...currency });
    const orderable = catalog.products.filter((p) => p.unorderableReason === null);
    if (common.json) {
      // Records we could not read are listed too, each with its problem: never dropped silently.
      printJson([
        ...orderable.map(productJson),
        ...catalog.unreadable.map((u) => ({ id: u.id, name: u.name, problem: u.problem, needs_currency: u.needsCurrency })),
      ]);
      return EXIT.ok;
    }
    if (orderable.length === 0) {
      out(`No product can be ordered by e-mail in ${country} from ${catalog.service}${catalog.unreadable.length > 0 ? ` (${plural(catalog.unreadable.length, 'product record')} could not be read, see below)` : ''}.`);
      if (!COUNTRIES.some((c) => c.code === country)) say(`note: ${country} is not among the countries the app knows of: ${KNOWN_COUNTRIES}.`);
    }
    if (orderable.length > 0) out(productLine('ID', 'Price', 'Product'));
    for (const p of orderable) out(productLine(String(p.id), priceText(p), [p.brand, p.name].filter(Boolean).join(' — ')));
    for (const p of orderable) {
      const note = currencyNote(p);
      if (note) say(`note: ${note}`);
    }
    for (const p of catalog.products) if (p.unorderableReason !== null) say(`(not orderable) ${p.id} ${p.name ?? ''}: ${p.unorderableReason}`);
    for (const u of catalog.unreadable) {
      say(`(unreadable) ${u.id ?? '?'} ${u.name ?? ''}: ${u.problem}${u.needsCurrency ? '. Give it with --currency CCC' : ''}`);
    }
    return EXIT.ok;
  });
}

export function readCsvFile(path: string | undefined, help: string): Uint8Array {
  if (!path) throw new UsageError(`Name the recipients file (.csv, .xlsx or .ods).\n\n${help}`);
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder; name the recipients file in it' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new UsageError(`Cannot read ${path}: ${why}.`);
  }
}

/** The file, the product and the default amount as `campaigns:previewImport` and `campaigns:create` take them. */
export function importInput(
  common: { env: ImportInput['environment'] },
  file: { path: string; bytes: Uint8Array },
  values: { product?: string; amount?: string; country?: string; currency?: string; sheet?: string },
  help: string,
) {
  const productId = positiveInt(values.product, '--product');
  if (productId === undefined) throw new UsageError(`--product ID is required (see \`giftbatch products --country CC\`).\n\n${help}`);
  return {
    fileName: basename(file.path),
    bytesBase64: Buffer.from(file.bytes).toString('base64'),
    environment: common.env,
    productId,
    ...importCountryOption(values.country, help),
    ...currencyOption(values.currency),
    ...(values.amount !== undefined ? { defaultAmount: values.amount } : {}),
    ...sheetOption(values.sheet),
  };
}

/** validate's and send's `--country CC`: optional, a two-letter code when given (as products takes it). */
function importCountryOption(text: string | undefined, help: string): { country?: string } {
  if (text === undefined) return {};
  const code = text.trim().toUpperCase();
  if (!isCountryCode(code)) throw new UsageError(`${countryProblem(text)}\n\n${help}`);
  return { country: code };
}

/** `--sheet NAME`: the workbook's sheet to read, as the workbook names it. */
function sheetOption(text: string | undefined): { sheet?: string } {
  if (text === undefined) return {};
  if (text.trim() === '') throw new UsageError('--sheet takes the name of a sheet of the workbook, e.g. --sheet Speakers.');
  return { sheet: text };
}

/**
 * What a workbook with several sheets and no --sheet says: `Sheets: Speakers (50 filled rows, header included), Notes (3 filled rows, header included).
 * Choose one with --sheet NAME.` A sheet's count is of its filled rows, the header and any title above it included, as the
 * window's sheet chooser says it; "rows" alone is validate's and send's count of recipient rows (48 of those 50).
 */
export function sheetChoiceError(sheets: ReadonlyArray<{ name: string; rows: number }>): UsageError {
  const list = sheets.map((s) => `${s.name} (${sheetFilledRows(s.rows)})`).join(', ');
  return new UsageError(`The workbook has several sheets with rows. Sheets: ${list}. Choose one with --sheet NAME.`);
}

type ImportInput = CallInput<'campaigns:previewImport'>;

/** Runs an import call, saying a bad --amount in the flag's words, and a sheet to choose as --sheet's list. */
export async function withAmountFlag<T>(amount: string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DefaultAmountError && amount !== undefined) throw new UsageError(`--amount ${amount}: ${error.reason}.`);
    if (error instanceof SheetChoiceNeeded) throw sheetChoiceError(error.sheets);
    throw error;
  }
}

/** How the file was read, for the person: `utf-8, delimiter ","`, or `workbook, sheet "Speakers"`. */
function layoutText(preview: CallOutput<'campaigns:previewImport'>): string {
  if (preview.workbook) return `${preview.format} workbook, sheet ${JSON.stringify(preview.workbook.sheet)}`;
  return `${preview.encoding}, delimiter ${JSON.stringify(preview.delimiter)}`;
}

/** What the person should know about the product's currency, on stderr. */
export function noteCurrency(product: ProductDto): void {
  const note = currencyNote(product);
  if (note) say(`note: ${note}.`);
}

/** A problem of the file in the CLI's words: it has no column choices, so a missing column is named in the header. */
function fileProblemText(message: string): string {
  if (!message.endsWith(CHOOSE_UNDER_COLUMNS)) return message;
  const header = message.includes('the e-mail address') ? '"Email"' : '"Name" (or use two columns, "First name" and "Last name")';
  return `${message.slice(0, -CHOOSE_UNDER_COLUMNS.length)}give its column the header ${header}.`;
}

const VALIDATE_HELP = `Usage: giftbatch validate FILE.csv|.xlsx|.ods --product ID [--sheet NAME] [--amount N] [--country CC] [--currency CCC] [--json]
Checks every row against the product without creating a campaign. A workbook with several sheets
holding rows needs --sheet NAME (without it the sheets are listed with their filled rows).`;

export async function validateCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(
    argv,
    { product: { type: 'string' }, amount: { type: 'string' }, country: { type: 'string' }, currency: { type: 'string' }, sheet: { type: 'string' } },
    VALIDATE_HELP,
  );
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const path = parsed.positionals[0];
  const bytes = readCsvFile(path, VALIDATE_HELP);
  const input = importInput(common, { path: path ?? '', bytes }, parsed.values, VALIDATE_HELP);
  return withService(common, {}, async (cli) => {
    const preview = await withAmountFlag(parsed.values.amount, () => cli.call('campaigns:previewImport', input));
    if (preview.workbook?.sheet === null) throw sheetChoiceError(preview.workbook.sheets);
    const { totals } = preview;
    noteCurrency(preview.product);
    const errors = [
      ...preview.problems.filter((p) => !preview.rows.some((r) => r.line === p.line)).map((p) => ({ line: p.line, field: 'file', message: fileProblemText(p.message) })),
      ...preview.rows.flatMap((r) => r.errors.map((e) => ({ line: r.line, field: e.field, message: issueInCliWords(e.message) }))),
    ];
    const warnings = preview.rows.flatMap((r) => r.warnings.map((w) => ({ line: r.line, field: w.field, message: w.message })));
    // A header and no row under it, or no column for the e-mail address or the name: send refuses the
    // file whole (exit 2), so validate exits the same, with the same facts in its own words (it never
    // creates anything). --json still prints its document (every key) for the scripts that read it.
    const noRows = totals.rows === 0;
    const missing = missingColumns(preview.mapping as ColumnMapping);
    const refused = preview.notAList || noRows || missing.length > 0;
    if (common.json) {
      printJson({
        rows: totals.rows,
        valid: totals.valid,
        invalid: totals.invalid,
        duplicate_emails: totals.duplicateEmails,
        known_emails: totals.knownEmails,
        encoding: preview.encoding,
        delimiter: preview.delimiter,
        totals: totals.amounts.map((m) => ({ currency: m.currency, amount: m.amount })),
        errors,
        warnings,
      });
    } else if (!refused) {
      // In the window's words (the import step's Ready to send, Need fixing, Repeated e-mails, Cost of
      // the ready rows), its figures under send's defaults: repeated recipients left out, as there.
      const bySend = totals.toSend.find((t) => t.repeats.inCampaign === 'skip' && t.repeats.earlier === 'skip');
      const ready = bySend ?? { rows: totals.valid, skipped: 0, amounts: totals.amounts };
      const leftOut = ready.skipped > 0 ? ` (${plural(ready.skipped, 'repeated row')} left out)` : '';
      out(`${plural(totals.rows, 'row')}: ${ready.rows} ready to send${leftOut}, ${totals.invalid} need fixing, ${plural(totals.duplicateEmails, 'repeated e-mail')}${totals.knownEmails > 0 ? `, ${totals.knownEmails} in earlier campaigns` : ''} (${layoutText(preview)})`);
      for (const t of ready.amounts) out(`Cost of the ready rows: ${t.currency} ${t.amount}`);
      for (const e of errors) out(e.message);
      for (const w of warnings) out(`warning: ${w.message}`);
      // What the flags change about the repeats warned of above.
      if (bySend && bySend.skipped > 0) {
        const flags = [totals.duplicateEmails > 0 ? '--gift-per-row' : null, totals.knownEmails > 0 ? '--send-repeats' : null].filter(Boolean).join(' or ');
        const cost = bySend.amounts.map((m) => `${m.currency} ${m.amount}`).join(' + ') || 'nothing';
        out(`note: send would order ${plural(bySend.rows, 'row')} (${cost}) and skip ${plural(bySend.skipped, 'repeated recipient')} unless ${flags}.`);
      }
    }
    if (preview.notAList) throw new UsageError(notAListMessage(basename(path ?? ''), 'check'));
    if (noRows && isBlankFile(preview.problems)) {
      throw new UsageError(`"${basename(path ?? '')}" ${BLANK_FILE}. Check that it is the right file, with a header row and one row per recipient under it.`);
    }
    if (noRows) {
      const problems = preview.problems.map((p) => `\n${fileProblemText(p.message)}`).join('');
      throw new UsageError(`"${basename(path ?? '')}" has no recipient rows: add one row per recipient under the header.${problems}`);
    }
    if (missing.length > 0) throw new UsageError(unmappedMessage(basename(path ?? ''), missing, 'check'));
    return errors.length > 0 ? EXIT.rowsFailed : EXIT.ok;
  });
}
