// Calls of the import, campaign and list screens: preview and create from a CSV, read a campaign
// and its rows, send / pause / check now, the timeline and the delivery report.
import { parseDecimal, type Money } from '../../../shared/domain/money.ts';
import { parseAmount } from '../../../shared/domain/csv/amount.ts';
import { BLANK_FILE, isBlankFile } from '../../../shared/domain/csv/table.ts';
import { notAListMessage } from '../../../shared/domain/csv/not-a-list.ts';
import { listCampaigns } from '../db/repos/campaigns.ts';
import { eventTimeline } from '../db/repos/events.ts';
import { countByState, pageRecipients } from '../db/repos/recipients.ts';
import { assertNotSentElsewhere } from '../campaigns/send-lease.ts';
import type { Product } from '../service/index.ts';
import type { AppContext } from './context.ts';
import type { HandlerInput, Handlers } from './dispatch.ts';
import { moneyDto, pollRoundDto, productDto, rowDto } from './dto.ts';
import { AppError } from './errors.ts';
import { campaignOrThrow, campaignWithProducts } from './summary.ts';
import { importRequestOf, preflightDetail, preflightProblems, previewRequestOf, productIn, ServiceError } from '../engine.ts';
import { snapshotOf } from '../campaigns/products.ts';
import type { RequiredColumn } from '../../../shared/domain/csv/headers.ts';
import { askStop, CreateStoppedError, newStopCell, STOPPING_MESSAGE, type StopCell } from './create-stop.ts';

type CampaignCalls =
  | 'campaigns:previewImport'
  | 'campaigns:create'
  | 'campaigns:stopCreate'
  | 'campaigns:list'
  | 'campaigns:get'
  | 'campaigns:rows'
  | 'campaigns:preflight'
  | 'campaigns:send'
  | 'campaigns:pause'
  | 'campaigns:retryFailed'
  | 'campaigns:revalidate'
  | 'campaigns:checkNow'
  | 'campaigns:timeline'
  | 'campaigns:report'
  | 'campaigns:followUp';

/** What both imports take (the preview's `rows` is its own). */
type ImportInput = Omit<HandlerInput<'campaigns:previewImport'>, 'rows'>;

function bytesOf(input: { bytesBase64: string; fileName: string }): Uint8Array {
  const bytes = Buffer.from(input.bytesBase64, 'base64');
  if (bytes.length === 0) throw new AppError('invalid-input', `"${input.fileName}" is empty. Choose your list of recipients: a CSV file or an .xlsx or .ods workbook.`);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** A default amount the product's currency cannot take; `reason` says why ("has more decimals than USD allows"). */
export class DefaultAmountError extends AppError {
  constructor(
    readonly text: string,
    readonly reason: string,
  ) {
    super('invalid-input', `The default amount ${text} is not valid: ${reason}.`);
  }
}

/** The default amount read as an amount cell is ("25", "$25", "25.00 USD"): a mark of another currency is refused, never converted. */
function defaultAmountOf(text: string | null | undefined, product: Product): Money | null {
  if (text == null || text.trim() === '') return null;
  const read = parseAmount(text, product.currency, '.');
  if (!read.ok) throw new DefaultAmountError(text, read.reason);
  return read.money;
}

function csvOptions(input: Pick<ImportInput, 'csv'>) {
  if (!input.csv) return undefined;
  return { ...(input.csv.delimiter ? { delimiter: input.csv.delimiter } : {}), ...(input.csv.mapping ? { mapping: input.csv.mapping } : {}) };
}

/** The campaign's default message as it is kept: trimmed, null when blank. */
function messageOf(input: { message?: string | null | undefined }): string | null {
  return input.message?.trim() ? input.message.trim() : null;
}

function reportFileName(name: string, now: number): string {
  const slug = name.normalize('NFKD').replace(/[^\w-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60).toLowerCase() || 'campaign';
  return `giftbatch-${slug}-report-${new Date(now).toISOString().slice(0, 10)}.csv`;
}

/**
 * A list refused whole for a column it lacks (missingColumns), in words any caller can act on. The
 * situation: a create refused ('create': nothing was created), or a check that creates nothing
 * anyway ('check': the CLI's validate).
 */
export function unmappedMessage(fileName: string, missing: readonly RequiredColumn[], situation: 'create' | 'check'): string {
  const what = missing.map((column) => (column === 'email' ? 'the e-mail address' : "the recipient's name")).join(' or for ');
  const headers = missing.map((column) => (column === 'email' ? '"Email"' : '"Name" (or "First name" and "Last name")')).join(' and ');
  const them = missing.length === 1 ? 'that column' : 'those columns';
  const consequence = situation === 'create' ? 'so no row can be sent: nothing was created' : 'so no row of it can be sent';
  return `"${fileName}" has no column for ${what}, ${consequence}. Name ${them} ${headers} in the file's header row, or choose ${missing.length === 1 ? 'it' : 'them'} when you import the list in the app.`;
}

/** How many saved creates' ids are kept, so that a stop arriving just after the answer says 'saved'. */
const SAVED_IDS_KEPT = 100;

export function campaignHandlers(ctx: AppContext): Pick<Handlers, CampaignCalls> {
  const { engine } = ctx;
  // The creates a caller named (progressId) that run now, each with its stop cell (create-stop.ts).
  const running = new Map<string, Set<StopCell>>();
  const savedIds = new Set<string>();
  const track = (progressId: string, cell: StopCell): (() => void) => {
    const cells = running.get(progressId) ?? new Set<StopCell>();
    running.set(progressId, cells.add(cell));
    return () => {
      cells.delete(cell);
      if (cells.size === 0) running.delete(progressId);
    };
  };
  const remember = (progressId: string) => {
    savedIds.delete(progressId);
    savedIds.add(progressId);
    for (const old of savedIds) {
      if (savedIds.size <= SAVED_IDS_KEPT) break;
      savedIds.delete(old);
    }
  };

  // One catalog read: the chosen product, and every orderable one a gift column may name.
  const load = async (input: ImportInput) => {
    const connection = await engine.connections.get(input.environment);
    const catalog = await engine.catalog(connection, input.country, input.currency ? { currency: input.currency } : {});
    const product = productIn(catalog, input.productId, connection, input.country);
    const products = catalog.orderable.map((p) => ({ productId: p.id, product: snapshotOf(p) }));
    return { connection, product, products, bytes: bytesOf(input), defaultAmount: defaultAmountOf(input.defaultAmount, product), csv: csvOptions(input) };
  };

  /** campaigns:create's work: the file checked and stored in the import worker, stoppable through `stop`. */
  const createDraft = async (input: HandlerInput<'campaigns:create'>, stop: StopCell | undefined) => {
    const { connection, product, products, bytes, defaultAmount, csv } = await load(input);
    const request = importRequestOf(connection, {
      bytes,
      product,
      products,
      name: input.name,
      senderName: input.senderName,
      message: messageOf(input),
      defaultAmount,
      ...(csv ? { csv } : {}),
      ...(input.sheet !== undefined ? { sheet: input.sheet } : {}),
      ...(input.repeats ? { repeats: input.repeats } : {}),
    });
    // One pass over the file: checked, then stored in the same job unless it holds no recipient row.
    const { progressId } = input;
    const answer = await ctx.imports.create(request, engine.clock.now(), progressId !== undefined ? (progress) => ctx.createProgress({ progressId, ...progress }) : undefined, stop);
    if (answer.kind === 'empty' && answer.problem !== null && isBlankFile([{ message: answer.problem }])) {
      throw new AppError('invalid-input', `"${input.fileName}" ${BLANK_FILE}. Nothing was created.`);
    }
    if (answer.kind === 'empty') {
      throw new AppError('invalid-input', `"${input.fileName}" has no recipient rows${answer.problem ? ` (${answer.problem})` : ''}. Nothing was created.`);
    }
    if (answer.kind === 'not-a-list') throw new AppError('invalid-input', notAListMessage(input.fileName, 'create'));
    if (answer.kind === 'unmapped') throw new AppError('invalid-input', unmappedMessage(input.fileName, answer.missing, 'create'));
    ctx.progress.notify(answer.campaignId);
    return { ...ctx.summary(answer.campaignId), product: productDto(product) };
  };

  return {
    // Both imports run in the import worker (import-runner.ts): this thread only waits for the answer.
    async 'campaigns:previewImport'(input) {
      const { connection, product, products, bytes, defaultAmount, csv } = await load(input);
      const message = messageOf(input);
      const preview = await ctx.imports.preview(
        {
          ...previewRequestOf(connection, bytes, product, { defaultAmount, ...(csv ? { csv } : {}) }),
          products,
          ...(message !== null ? { message } : {}),
          ...(input.sheet !== undefined ? { sheet: input.sheet } : {}),
        },
        input.rows,
      );
      return { ...preview, product: productDto(product) };
    },

    async 'campaigns:create'(input) {
      const { progressId } = input;
      // One create per name at a time: a stop names the create it stops, and its answer must be true of it.
      if (progressId !== undefined && running.has(progressId)) {
        throw new AppError('invalid-input', `A draft is already being saved under the progressId "${progressId}": give each save its own progressId. Nothing was created.`);
      }
      // Stoppable from the moment it is named (campaigns:stopCreate), the catalog read included.
      const stop = progressId !== undefined ? newStopCell() : undefined;
      const untrack = progressId !== undefined && stop ? track(progressId, stop) : null;
      try {
        const created = await createDraft(input, stop);
        if (progressId !== undefined) remember(progressId);
        return created;
      } catch (error) {
        if (error instanceof CreateStoppedError) throw new AppError('stopped', error.message);
        throw error;
      } finally {
        untrack?.();
      }
    },

    async 'campaigns:stopCreate'({ progressId }) {
      const cells = running.get(progressId);
      if (cells) {
        const outcomes = [...cells].map(askStop);
        if (outcomes.includes('stopping')) {
          return { outcome: 'stopping' as const, message: STOPPING_MESSAGE };
        }
      }
      if (cells || savedIds.has(progressId)) {
        return { outcome: 'saved' as const, message: 'Too late to stop: the draft is already saved, with all its rows. Nothing was changed; nothing is sent until you send it.' };
      }
      return { outcome: 'not-running' as const, message: `No draft is being saved under "${progressId}" here; nothing was changed.` };
    },

    async 'campaigns:list'() {
      return { campaigns: listCampaigns(engine.db).map((c) => ctx.summary(c.id)) };
    },

    async 'campaigns:get'({ campaignId }) {
      return ctx.summary(campaignId);
    },

    async 'campaigns:rows'({ campaignId, offset, limit, states, search, ids, held }) {
      const campaign = campaignOrThrow(engine, campaignId);
      const page = pageRecipients(engine.db, campaignId, { offset, limit, ...(states ? { states } : {}), ...(search ? { search } : {}), ...(ids ? { ids } : {}), ...(held ? { held } : {}) });
      const now = engine.clock.now();
      const withProducts = campaignWithProducts(engine, campaign.id);
      return { rows: page.rows.map((r) => rowDto(r, now, withProducts)), total: page.total };
    },

    async 'campaigns:preflight'({ campaignId, stopIfAccountChanged }) {
      campaignOrThrow(engine, campaignId);
      let accountChanged: string | null = null;
      try {
        await engine.checkAccount(campaignId, false);
      } catch (error) {
        if (!(error instanceof ServiceError && error.kind === 'account')) throw error;
        accountChanged = error.message;
      }
      if (accountChanged !== null && stopIfAccountChanged) {
        const { counts, remaining } = ctx.summary(campaignId);
        return {
          ok: false,
          problems: [],
          rowsToSend: counts.ready + counts.sending,
          totals: remaining,
          availability: null,
          repeatRecipients: { count: 0, lines: [] },
          accountChanged,
          repeatsInCampaign: { people: 0, rows: 0 },
          byProduct: [],
        };
      }
      const result = await engine.preflight(campaignId);
      return {
        ok: result.ok,
        problems: result.problems,
        rowsToSend: result.rowsToSend,
        totals: result.totals.map(moneyDto),
        availability: stockDto(result.availability),
        repeatRecipients: result.repeatRecipients,
        accountChanged,
        repeatsInCampaign: result.repeatsInCampaign,
        byProduct: result.byProduct.map((p) => ({ productId: p.productId, name: p.name, rows: p.rows, totals: p.totals.map(moneyDto), availability: stockDto(p.availability) })),
      };
    },

    async 'campaigns:send'({ campaignId, totals, sameAccount, allowRepeats, lookUpOnly, resendUnconfirmed }) {
      const campaign = campaignOrThrow(engine, campaignId);
      // Before anything else, and before answering: another process sending it says so (nothing is
      // asked of the service), and another account must be confirmed by a person.
      if (!ctx.runs.isRunning(campaignId)) assertNotSentElsewhere(engine.db, campaign);
      await engine.checkAccount(campaignId, sameAccount === true);
      // Every start and resume runs the pre-flight; the run checks the same result (and the totals the
      // person confirmed) again before anything leaves, and when it fails only looks rows up.
      const checked = await engine.preflight(campaignId);
      const confirmedTotals = totals?.map((t) => parseDecimal(t.amount, t.currency));
      const gate = { checked, ...(confirmedTotals ? { confirmedTotals } : {}), ...(sameAccount ? { sameAccount } : {}), ...(allowRepeats ? { allowRepeats } : {}), ...(lookUpOnly ? { lookUpOnly } : {}), ...(resendUnconfirmed ? { resendUnconfirmed } : {}) };
      await ctx.runs.start(campaignId, gate);
      if (lookUpOnly) return ctx.summary(campaignId);
      const problems = preflightProblems(checked, confirmedTotals, allowRepeats === true);
      // Only the repeated recipients stand in the way: a person's confirmation is all it takes.
      const onlyRepeats = problems.length === 1 && preflightProblems(checked, confirmedTotals, true).length === 0;
      if (problems.length > 0) throw new AppError(onlyRepeats ? 'repeat-recipients' : 'preflight', `Nothing was sent from "${campaign.name}". ${preflightDetail(problems)}`);
      return ctx.summary(campaignId);
    },

    async 'campaigns:pause'({ campaignId }) {
      campaignOrThrow(engine, campaignId);
      await ctx.runs.pause(campaignId);
      return ctx.summary(campaignId);
    },

    async 'campaigns:revalidate'({ campaignId }) {
      const campaign = campaignOrThrow(engine, campaignId);
      if (ctx.runs.isRunning(campaignId)) throw new AppError('conflict', `"${campaign.name}" is being sent right now: pause it first, then check its rows again.`);
      // Every unsent row read, checked and rewritten: in the worker, the engine's thread keeps answering.
      const counts = await ctx.imports.revalidate(campaignId, await engine.productsNow(campaignId), engine.clock.now());
      ctx.progress.notify(campaignId);
      return { ...counts, campaign: ctx.summary(campaignId) };
    },

    async 'campaigns:retryFailed'({ campaignId }) {
      const campaign = campaignOrThrow(engine, campaignId);
      if (ctx.runs.isRunning(campaignId)) throw new AppError('conflict', `"${campaign.name}" is being sent right now: pause it first, then retry the failed rows.`);
      const requeued = engine.retryFailed(campaignId);
      ctx.progress.notify(campaignId);
      return { requeued, campaign: ctx.summary(campaignId) };
    },

    async 'campaigns:checkNow'({ campaignId }) {
      const campaign = campaignOrThrow(engine, campaignId);
      const result = await ctx.pollers.checkNow(campaign);
      return pollRoundDto(result, result.waiting > 0 ? engine.nextPollDelay(await engine.connectionFor(campaign), campaignId) : null);
    },

    async 'campaigns:timeline'({ campaignId, bucketMs }) {
      campaignOrThrow(engine, campaignId);
      return { buckets: eventTimeline(engine.db, campaignId, bucketMs).map((b) => ({ at: b.start, ordered: b.ordered, delivered: b.delivered })) };
    },

    async 'campaigns:report'({ campaignId }) {
      const campaign = campaignOrThrow(engine, campaignId);
      // Every row read and written out: in the worker, the engine's thread keeps answering meanwhile.
      const csv = await ctx.imports.report(campaignId);
      const fileName = reportFileName(campaign.name, engine.clock.now());
      const savedTo = ctx.saveReport ? await ctx.saveReport(fileName, csv) : null;
      return { fileName, csv, savedTo, rows: Object.values(countByState(engine.db, campaignId)).reduce((sum, n) => sum + n, 0) };
    },

    async 'campaigns:followUp'({ campaignId, include, name }) {
      const campaign = campaignOrThrow(engine, campaignId);
      // Rows still move while it sends: what failed or was cancelled is known once it stands still.
      if (ctx.runs.isRunning(campaignId)) throw new AppError('conflict', `"${campaign.name}" is being sent right now: pause it or let it finish, then make the follow-up campaign.`);
      // Every row of the kinds read, checked and stored: in the worker, the engine's thread keeps answering.
      const made = await ctx.imports.followUp({ campaignId, include, ...(name ? { name } : {}) }, engine.clock.now());
      ctx.progress.notify(made.campaignId);
      return ctx.summary(made.campaignId);
    },
  };
}

/** An availability answer as the contract carries it: whether in stock and the service's words, nothing else of its body. */
function stockDto(answer: { inStock?: boolean | null; message?: string | null } | null): { inStock: boolean | null; message: string | null } | null {
  return answer ? { inStock: answer.inStock ?? null, message: answer.message ?? null } : null;
}
