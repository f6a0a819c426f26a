// The app's whole-campaign jobs as its import worker runs them: the two import jobs, the delivery
// report (every row read and written out) and checking a campaign's rows again (every unsent row). The import jobs run (import-worker.ts), on the worker's own
// connection: the importer's one implementation (campaigns/importer.ts, which the CLI calls on its
// own thread), and only what the caller needs back, so that little crosses to the main thread:
// the preview as the contract's DTO, a new campaign as its id and counts. Also how an error
// crosses back: the ones an import raises on purpose are rebuilt as themselves on the other side.
import type { CallInput, CallOutput, MoneyDto } from '../../../shared/contract.ts';
import type { CsvImport } from '../../../shared/domain/csv/index.ts';
import type { ValidatedRow } from '../../../shared/domain/validation.ts';
import { CsvLimitError } from '../../../shared/domain/csv/limits.ts';
import type { SheetInfo } from '../../../shared/domain/csv/index.ts';
import { SheetChoiceNeeded, WorkbookError } from '../workbook/limits.ts';
import { MoneyError, toDecimal, type Money } from '../../../shared/domain/money.ts';
import { figureFor, toSendUnderChoices, type ProductFigure } from '../../../shared/domain/repeat-figures.ts';
import { campaignReport } from '../campaigns/report.ts';
import { revalidateRows, type RevalidateCounts } from '../campaigns/revalidate.ts';
import { createFollowUp, FollowUpError, type FollowUpCounts, type FollowUpRequest } from '../campaigns/follow-up.ts';
import { discardUnfinishedImports, getCampaign, type ProductSnapshot } from '../db/repos/campaigns.ts';
import { previewImport, storeImport, type ImportRequest, type PreviewRequest } from '../campaigns/importer.ts';
import { isDiskFull, NetworkFolderError, type Db } from '../db/open.ts';
import type { StateCounts } from '../db/repos/recipients.ts';
import { missingColumns, type RequiredColumn } from '../../../shared/domain/csv/headers.ts';
import { isNotAList } from '../../../shared/domain/csv/not-a-list.ts';
import { storedBeforePart, throttleCreateProgress, type CreateProgress } from './create-progress.ts';
import { claimLastStep, CreateStoppedError, throwIfStopAsked, type StopCell } from './create-stop.ts';

/** The preview as the worker computes it; the handler adds the product it checked against. */
export type PreviewDto = Omit<CallOutput<'campaigns:previewImport'>, 'product'>;

/** Whether the preview lists the file's rows (`campaigns:previewImport`'s `rows`): 'none' builds and sends none. */
export type PreviewRows = NonNullable<CallInput<'campaigns:previewImport'>['rows']>;

/** The preview's `defaultMessage`: the rows that would send the campaign's default message and cannot. */
export type DefaultMessageFigure = NonNullable<PreviewDto['defaultMessage']>;

export type ImportJob =
  | { readonly kind: 'preview'; readonly request: PreviewRequest; readonly rows: PreviewRows }
  /**
   * `marker`: who stores it (campaigns.importing) while its rows go in parts. `stop`: the create's
   * stop cell (create-stop.ts), shared with the engine's thread, checked every 2,000 rows of the file's check and before each part.
   */
  | { readonly kind: 'create'; readonly request: ImportRequest; readonly now: number; readonly marker: string; readonly stop?: StopCell }
  /** Removes what a create that stopped half-way stored under `marker`. */
  | { readonly kind: 'discard'; readonly marker: string }
  | { readonly kind: 'report'; readonly campaignId: string }
  | { readonly kind: 'revalidate'; readonly campaignId: string; readonly products: readonly (readonly [number, ProductSnapshot])[]; readonly now: number }
  /** A follow-up campaign made from a campaign's failed, cancelled or expired rows (campaigns/follow-up.ts). */
  | { readonly kind: 'followUp'; readonly request: FollowUpRequest; readonly now: number };

/** The follow-up campaign made: its id, and how many rows of each kind it took. */
export interface FollowUpAnswer {
  readonly campaignId: string;
  readonly carried: FollowUpCounts;
}

/**
 * A created campaign; or nothing stored, because the file holds no recipient row (with the parser's
 * first problem), or because it has no column for a field every row needs (missingColumns).
 */
export type CreateAnswer =
  | { readonly kind: 'created'; readonly campaignId: string; readonly counts: StateCounts }
  | { readonly kind: 'empty'; readonly problem: string | null }
  /** Not a list at all (shared/domain/csv/not-a-list.ts): one column of text, nothing the mapping knows, no address. */
  | { readonly kind: 'not-a-list' }
  | { readonly kind: 'unmapped'; readonly missing: readonly RequiredColumn[] };

export type JobAnswer<J extends ImportJob> = J extends { kind: 'preview' }
  ? PreviewDto
  : J extends { kind: 'report' }
    ? string
    : J extends { kind: 'revalidate' }
      ? RevalidateCounts
      : J extends { kind: 'followUp' }
        ? FollowUpAnswer
      : J extends { kind: 'discard' }
        ? number
        : CreateAnswer;

/**
 * Tests only: the worker fails inside the storing transaction once it has inserted `afterRows`
 * recipient rows: it exits (process.exit), throws, or hangs until it is terminated.
 */
export interface ImportFault {
  readonly afterRows: number;
  readonly action: 'exit' | 'throw' | 'hang';
}

// A large import goes in parts, each followed by a pause as long as it (10 ms at least) with the
// write lock free: the engine's thread, when it waits to write, retries after 1, 2, 5, 10, 15… ms
// (SQLite's busy handler) and finds the lock free within a retry or two, instead of waiting for one
// transaction of every row. Storing takes about twice as long; it runs in the worker.
const ROWS_PER_PART = 1_000;
const pauseAfter = (partMs: number): number => Math.max(10, partMs);
const pauseCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * `report`: told how far a create is (create-progress.ts), throttled here: the file being checked,
 * then the rows stored before each part, then every row stored before the job answers.
 */
export function runImportJob<J extends ImportJob>(db: Db, job: J, report?: (progress: CreateProgress) => void): JobAnswer<J>;
export function runImportJob(db: Db, job: ImportJob, report?: (progress: CreateProgress) => void): PreviewDto | CreateAnswer | string | RevalidateCounts | FollowUpAnswer | number {
  if (job.kind === 'discard') return discardUnfinishedImports(db, job.marker);
  if (job.kind === 'report') return campaignReport(db, job.campaignId);
  if (job.kind === 'followUp') {
    const made = createFollowUp(db, job.request, job.now);
    return { campaignId: made.campaign.id, carried: made.carried };
  }
  if (job.kind === 'revalidate') {
    const campaign = getCampaign(db, job.campaignId);
    if (!campaign) throw new Error(`campaign ${job.campaignId} is gone`);
    return revalidateRows(db, campaign, new Map(job.products), job.now);
  }
  if (job.kind === 'preview') {
    try {
      return previewDto(previewImport(db, job.request), job.rows);
    } catch (error) {
      // The screen asks which sheet: an answer, not a failure. A create without the sheet still fails with the list.
      if (error instanceof SheetChoiceNeeded) return sheetChoiceDto(error);
      throw error;
    }
  }
  const { stop } = job;
  // Asked to stop while it waited behind another job: nothing read, nothing told.
  throwIfStopAsked(stop);
  const tell = report ? throttleCreateProgress(report) : null;
  tell?.({ phase: 'checking', stored: 0, total: null });
  // Every few thousand rows checked, the stop is looked at too: a stop during a long check takes effect within it.
  const checked = previewImport(db, stop ? { ...job.request, checkpoint: () => throwIfStopAsked(stop) } : job.request);
  throwIfStopAsked(stop);
  // A file without one recipient row creates nothing: the caller says why.
  const total = checked.validation.rows.length;
  if (notAList(checked)) return { kind: 'not-a-list' };
  if (total === 0) return { kind: 'empty', problem: checked.parsed.problems[0]?.message ?? null };
  const missing = missingColumns(checked.parsed.mapping);
  if (missing.length > 0) return { kind: 'unmapped', missing };
  tell?.({ phase: 'storing', stored: 0, total });
  // A file of one part is stored in one transaction: its last step starts now.
  if (total <= ROWS_PER_PART) claimLastStep(stop);
  let part = 0;
  const created = storeImport(db, job.request, checked, job.now, {
    marker: job.marker,
    rowsPerPart: ROWS_PER_PART,
    between: (lastPartMs) => {
      const index = part++;
      // Stopped here, the parts stored so far are removed (the runner's discard) before the create answers.
      if (storedBeforePart(index + 1, ROWS_PER_PART, total) >= total) claimLastStep(stop);
      else throwIfStopAsked(stop);
      tell?.({ phase: 'storing', stored: storedBeforePart(index, ROWS_PER_PART, total), total });
      if (lastPartMs > 0) Atomics.wait(pauseCell, 0, 0, pauseAfter(lastPartMs));
    },
  });
  tell?.({ phase: 'storing', stored: total, total });
  return { kind: 'created', campaignId: created.campaign.id, counts: created.counts };
}

// dto.ts's moneyDto, written out: dto.ts imports the engine, which the worker does not load.
const money = (m: Money): MoneyDto => ({ currency: m.currency, amount: toDecimal(m) });
const productsDto = (products: readonly ProductFigure[]): { productId: number; rows: number; amounts: MoneyDto[] }[] =>
  products.map(({ productId, rows, amounts }) => ({ productId, rows, amounts: amounts.map(money) }));

function mappingRecord(mapping: Readonly<Partial<Record<string, number>>>): Record<string, number> {
  return Object.fromEntries(Object.entries(mapping).filter((e): e is [string, number] => typeof e[1] === 'number'));
}

/**
 * The import screen's view of a checked file: its layout, the totals, and every row with its
 * findings unless `rows` is 'none' (then none is built: nothing of them is copied to the caller).
 */
export function previewDto(result: CsvImport, rows: PreviewRows): PreviewDto {
  const { parsed, validation } = result;
  // What the draft would send under each repeat choice (the importer's own rule), and every valid row ("send" to both).
  const figures = toSendUnderChoices(validation.rows);
  const everyValid = figureFor(figures, { inCampaign: 'send', earlier: 'send' });
  return {
    format: parsed.format,
    workbook: parsed.workbook ? { sheets: parsed.workbook.sheets.map((s) => ({ name: s.name, rows: s.rows })), sheet: parsed.workbook.sheet } : null,
    encoding: parsed.encoding,
    delimiter: parsed.delimiter,
    headers: [...parsed.headers],
    mapping: mappingRecord(parsed.mapping),
    detectedMapping: mappingRecord(parsed.detectedMapping),
    problems: parsed.problems.map((p) => ({ line: p.line, message: p.message })),
    notAList: notAList(result),
    rows: rows === 'none' ? [] : validation.rows.map((r) => ({
      line: r.line,
      name: r.name,
      email: r.email,
      amount: r.amount ? money(r.amount) : null,
      message: r.message,
      errors: r.errors.map((i) => ({ field: i.field, message: i.message })),
      warnings: r.warnings.map((i) => ({ field: i.field, message: i.message })),
      productId: r.productId,
    })),
    defaultMessage: defaultMessageFigure(validation.rows),
    totals: {
      rows: validation.totals.rows,
      valid: validation.totals.valid,
      invalid: validation.totals.invalid,
      duplicateEmails: validation.totals.duplicateEmails,
      knownEmails: validation.totals.knownEmails,
      amounts: validation.totals.totals.map(money),
      byProduct: productsDto(everyValid?.byProduct ?? []),
      toSend: figures.map((f) => ({ repeats: f.repeats, rows: f.rows, skipped: f.skipped, amounts: f.amounts.map(money), byProduct: productsDto(f.byProduct) })),
    },
  };
}

/** Whether the file is no list at all; its rows are looked at only when its header is one column. */
function notAList({ parsed, validation }: CsvImport): boolean {
  return parsed.headers.length === 1 && isNotAList(parsed, validation.rows.map((r) => r.raw));
}

/**
 * The rows that would send the campaign's default message (no message of their own) and cannot:
 * validation gave them a message error. How many, the first one's line, and that error's reason
 * without its "Line N: " (validation.ts writes every issue so). Null when no such row.
 */
export function defaultMessageFigure(rows: readonly ValidatedRow[]): DefaultMessageFigure | null {
  let count = 0;
  let first: { line: number; reason: string } | null = null;
  for (const row of rows) {
    if (row.message !== '') continue;
    const issue = row.errors.find((i) => i.field === 'message');
    if (!issue) continue;
    count += 1;
    first ??= { line: row.line, reason: issue.message.replace(/^Line \d+:\s*/, '') };
  }
  return first ? { rows: count, firstLine: first.line, reason: first.reason } : null;
}

/** A workbook whose sheet must be chosen: its sheets and their rows, nothing read (`sheet` null). */
export function sheetChoiceDto(choice: SheetChoiceNeeded): PreviewDto {
  return {
    format: choice.format,
    workbook: { sheets: choice.sheets.map((s) => ({ name: s.name, rows: s.rows })), sheet: null },
    encoding: choice.format,
    delimiter: '',
    headers: [],
    mapping: {},
    detectedMapping: {},
    problems: [],
    notAList: false,
    rows: [],
    defaultMessage: null,
    totals: { rows: 0, valid: 0, invalid: 0, duplicateEmails: 0, knownEmails: 0, amounts: [], byProduct: [], toSend: toSendUnderChoices([]).map((f) => ({ ...f, amounts: [], byProduct: [] })) },
  };
}

/** An error as it crosses between threads (structured cloning keeps neither its class nor its code). */
export interface ErrorData {
  readonly name: string;
  readonly message: string;
  readonly stack: string | null;
  readonly code: string | null;
  /** SheetChoiceNeeded's sheets and the workbook's format. */
  readonly sheets?: readonly SheetInfo[];
  readonly format?: 'xlsx' | 'ods';
}

export function errorData(error: unknown): ErrorData {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), stack: null, code: null };
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: error.message,
    stack: error.stack ?? null,
    code: typeof code === 'string' ? code : null,
    ...(error instanceof SheetChoiceNeeded ? { sheets: error.sheets.map((s) => ({ name: s.name, rows: s.rows })), format: error.format } : {}),
  };
}

// The errors an import raises on purpose, which the app answers with their own code and message
// (errors.ts classifyError). Anything else is a failure of the import itself.
const ON_PURPOSE: Readonly<Record<string, new (message: string) => Error>> = {
  CreateStoppedError,
  CsvLimitError,
  MoneyError,
  FollowUpError,
  NetworkFolderError,
  WorkbookError,
};

/** The error an import raised on purpose, as itself (a full disk as SQLite's error with its code); null for anything else. */
export function purposefulError(data: ErrorData): Error | null {
  if (data.name === 'SheetChoiceNeeded' && data.sheets && data.format) return new SheetChoiceNeeded(data.sheets, data.format);
  const Class = ON_PURPOSE[data.name];
  if (Class) return new Class(data.message);
  if (isDiskFull(data)) return Object.assign(new Error(data.message), { code: data.code });
  return null;
}

/** Any error as a plain Error carrying the original's name, message, stack and code (for the log). */
export function plainError(data: ErrorData): Error {
  const error = Object.assign(new Error(data.message), data.code ? { code: data.code } : {});
  error.name = data.name;
  if (data.stack) error.stack = data.stack;
  return error;
}
