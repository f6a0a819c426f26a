// The one contract between the renderer and the engine (docs/architecture.md, "The contract"):
// every call with its input and output schema, and every push event. electron/main registers each
// call generically over IPC, the preload exposes the same names, the browser shell serves the same
// names over HTTP and a WebSocket. No call exists in one transport only. Types come from the schemas.
//
// Money crosses as `{ currency, amount }` with `amount` a decimal string ("25.00", "30000"): exact,
// readable, and never a float. The API key crosses only inward (environments:setKey); nothing in
// an output ever carries it.
import { z } from 'zod';
import { ENVIRONMENTS, PAUSE_REASONS, SEND_STATES } from './domain/campaigns.ts';
import { ROW_STATES } from './domain/rows.ts';
import { SKIP_POLICIES } from './domain/skips.ts';
import { findingSchema } from './domain/findings.ts';
import { FOLLOW_UP_KINDS } from './domain/follow-up.ts';
import { FILE_FORMATS, TEMPLATE_FORMATS } from './domain/file-formats.ts';
import { MAPPED_FIELDS, type MappedField } from './domain/csv/headers.ts';

export const environmentSchema = z.enum(ENVIRONMENTS);
export type EnvironmentName = z.infer<typeof environmentSchema>;

export const rowStateSchema = z.enum(ROW_STATES);

export const moneySchema = z.object({ currency: z.string().length(3), amount: z.string() });
export type MoneyDto = z.infer<typeof moneySchema>;

/** How many rows are in each state: every state is a key (a record keyed by an enum is exhaustive). */
export const countsSchema = z.record(rowStateSchema, z.number().int());
export type Counts = z.infer<typeof countsSchema>;

export const keyDescriptionSchema = z.object({ set: z.boolean(), endsWith: z.string().optional() });

export const environmentInfoSchema = z.object({
  name: environmentSchema,
  /** The service address; null for the built-in simulator and for an environment not set up yet. */
  baseUrl: z.string().nullable(),
  simulated: z.boolean(),
  rate: z.number(),
  key: keyDescriptionSchema,
  /** Where the key comes from: the keychain, this session only, GIFTBATCH_API_KEY, or none needed. */
  keySource: z.enum(['keychain', 'session', 'env', 'simulator', 'none']),
});
export type EnvironmentInfo = z.infer<typeof environmentInfoSchema>;

export const productSchema = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  brand: z.string().nullable(),
  countryCode: z.string().nullable(),
  currency: z.string(),
  /**
   * 'service': the product's record states its currency. 'stated' (the organiser gave it) or
   * 'learned' (earlier orders of it were issued in it): the record states none, and the first
   * order confirms it or pauses the campaign.
   */
  currencySource: z.enum(['service', 'stated', 'learned']),
  availability: z.string(),
  deliveryMethods: z.array(z.string()),
  price: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('fixed'), amount: moneySchema }),
    z.object({ kind: z.literal('range'), min: moneySchema, max: moneySchema }),
  ]),
  /** Why it cannot be ordered by e-mail; null when it can. */
  unorderableReason: z.string().nullable(),
});
export type ProductDto = z.infer<typeof productSchema>;

/** A product record we could not read: listed with what is missing or odd, never dropped silently. */
export const unreadableProductSchema = z.object({
  id: z.number().int().nullable(),
  name: z.string().nullable(),
  problem: z.string(),
  /** Only its currency is missing: choosing one makes it orderable. */
  needsCurrency: z.boolean(),
});

export const issueSchema = z.object({ field: z.string().optional(), message: z.string() });
const currencyInput = z.string().regex(/^[A-Z]{3}$/);

export const rowSchema = z.object({
  id: z.number().int(),
  line: z.number().int(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  amount: moneySchema.nullable(),
  /**
   * The amount as the file (or the last edit) wrote it when it did not become `amount`: refused ("25"
   * for a fixed price of 10, "ten"), or unread because the row's gift is unknown. Null otherwise. The
   * row editor starts from it, so the person sees and corrects what the file said.
   */
  amountText: z.string().nullable(),
  /** The row's own message as written (its fields unfilled); null when it uses the campaign's. */
  message: z.string().nullable(),
  /**
   * The message its order carries: the row's own or the campaign's, with the row's fields filled in
   * (for a row already sent, the one its order was sent with). Null when there is none, or when it
   * cannot be filled in (the row then has a 'message' error).
   */
  sentMessage: z.string().nullable(),
  /** The cells the row was read from, by their column's header (null for none): what its message's {column} fields name. */
  cells: z.record(z.string(), z.string()).nullable(),
  state: rowStateSchema,
  /** A skipped row the import left out by a policy (its address repeats an earlier line, or had a gift before); null otherwise. */
  skippedBy: z.enum(SKIP_POLICIES).nullable(),
  /** The product it is ordered as (its own gift, else the campaign's), and that product's name as checked. */
  productId: z.number().int(),
  productName: z.string().nullable(),
  orderId: z.number().nullable(),
  orderStatus: z.string().nullable(),
  itemId: z.number().nullable(),
  itemStatus: z.string().nullable(),
  /** What the service charged, exactly as it stated it (may carry more decimals than the currency). */
  charged: moneySchema.nullable(),
  /** What the service says it issued (the item's price), as received. */
  issued: z.object({ currency: z.string(), amount: z.string() }).nullable(),
  /** Where the service's answers disagreed with what the row asked ('mismatch'), or could not be read. */
  findings: z.array(findingSchema),
  exchangeRate: z.string().nullable(),
  feeRate: z.string().nullable(),
  externalReferenceId: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  errors: z.array(issueSchema),
  warnings: z.array(issueSchema),
  sentAt: z.number().nullable(),
  deliveredAt: z.number().nullable(),
  acceptanceExpiry: z.number().nullable(),
  /** The acceptance link expired and the recipient never accepted. */
  acceptanceExpired: z.boolean(),
  /**
   * Left mid-send and held for a person since then (epoch ms): its lookup by key came back empty when
   * that proves nothing. Null for every other row.
   */
  heldAt: z.number().nullable(),
});
export type RowDto = z.infer<typeof rowSchema>;

export const campaignSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  environment: environmentSchema,
  /** The address of the service it was made on; `simulator://embedded` for the built-in simulator. */
  serviceUrl: z.string(),
  productId: z.number().int(),
  productName: z.string().nullable(),
  /** How many products its rows are ordered as: 1, or more when its file chose a gift per row. */
  products: z.number().int(),
  /**
   * Those products, its own first, each with its name as checked (null when the record had none). Its
   * own is left out when no row uses it and others are (a follow-up whose rows are all another gift).
   */
  productList: z.array(z.object({ productId: z.number().int(), name: z.string().nullable() })),
  /**
   * It chooses a gift per row: its file had a gift column (even one naming only its own product), it
   * follows up a campaign that did, or a row was given another gift. Its review shows each row's gift
   * and offers another; kept with the campaign, so a reopened draft shows what the new one did.
   */
  giftPerRow: z.boolean(),
  currency: z.string(),
  sendState: z.enum(SEND_STATES),
  pausedReason: z.enum(PAUSE_REASONS).nullable(),
  pausedDetail: z.string().nullable(),
  /** The queue is working on it in this process right now. */
  running: z.boolean(),
  counts: countsSchema,
  charged: z.array(moneySchema),
  /** Of `charged`, what went to orders later cancelled or whose payment expired: shown apart. */
  chargedCancelled: z.array(moneySchema),
  /**
   * Of `charged`, what went to ordered rows whose acceptance link expired unaccepted (the rows
   * `acceptanceExpired` counts): the order stands, but the recipient can no longer take the gift.
   */
  chargedExpired: z.array(moneySchema),
  /** Face value of what is still to send (ready + sending), per currency. */
  remaining: z.array(moneySchema),
  createdAt: z.number(),
  /** Epoch ms of the next scheduled poll round, when one is scheduled. */
  nextPollAt: z.number().nullable(),
  /**
   * Epoch ms when a poll round last read the statuses of its undelivered orders (by the schedule,
   * Check now or `giftbatch poll`); null when none has. "Last checked …" on the campaign screen.
   */
  lastPolledAt: z.number().nullable(),
  /**
   * Ordered rows whose acceptance link expired unaccepted (acceptance.ts), those a follow-up campaign
   * took included; followUpRows.expired counts those it may still take, under the same condition.
   */
  acceptanceExpired: z.number().int(),
  /** Rows whose order answer disagreed with what they asked, or could not be read. */
  flagged: z.number().int(),
  /**
   * Ordered rows whose charge the service has not stated yet (its answer left out the price; a poll
   * reads it from the order's record): `charged` does not include them until then.
   */
  unchargedOrders: z.number().int(),
  /**
   * Rows held for a person: left `sending` mid-send, their lookup by key empty when that proves
   * nothing (`heldAt` set; the campaign pauses 'unconfirmed'). Every such row, however many: what
   * campaigns:rows' `held` filter lists.
   */
  heldRows: z.number().int(),
  /** Of the failed rows, those campaigns:retryFailed would put back: not taken by a follow-up campaign (sent from there). */
  retryable: z.number().int(),
  /** The country of its product as validated (the catalog its rows' gifts come from); null when the product states none. */
  countryCode: z.string().nullable(),
  /** The amount a row without its own is given (in the campaign's currency), as the campaign was made; null when it has none. */
  defaultAmount: moneySchema.nullable(),
  /**
   * The rows campaigns:followUp would take now, per kind: failed (= retryable), cancelled, and
   * ordered rows whose acceptance link expired; none an earlier follow-up took.
   */
  followUpRows: z.record(z.enum(FOLLOW_UP_KINDS), z.number().int()),
  /** The follow-up campaigns that took failed rows of this one, each with how many (pausedDetail says so). */
  failedFollowedUp: z.array(z.object({ id: z.string(), name: z.string(), rows: z.number().int() })),
  /** The follow-up campaigns that took rows of this one whose acceptance link expired, each with how many (acceptanceExpired counts them too). */
  expiredFollowedUp: z.array(z.object({ id: z.string(), name: z.string(), rows: z.number().int() })),
  /**
   * Why the `retryable` failed rows failed, grouped by the service's answer, largest group first (at
   * most 3): `answer` "HTTP 402 INSUFFICIENT_FUNDS" (null when the row's stored reason has no HTTP
   * status), `message` one row's words from the service ("the order costs USD 25.00 but …"), `rows`
   * how many were refused so. Empty when no failed row is left to retry.
   */
  failedReasons: z.array(z.object({ answer: z.string().nullable(), message: z.string(), rows: z.number().int() })),
});
export type CampaignSummary = z.infer<typeof campaignSummarySchema>;

export const preflightSchema = z.object({
  ok: z.boolean(),
  problems: z.array(z.string()),
  rowsToSend: z.number().int(),
  totals: z.array(moneySchema),
  availability: z.object({ inStock: z.boolean().nullable(), message: z.string().nullable() }).nullable(),
  /** Ready rows for recipients who already have a gift from this environment (another campaign): sending them needs `allowRepeats`. */
  repeatRecipients: z.object({ count: z.number().int(), lines: z.array(z.number().int()) }),
  /**
   * Set when the environment's key now is not the one the campaign was sent under: what `campaigns:send`
   * will refuse unless `sameAccount` is confirmed.
   */
  accountChanged: z.string().nullable(),
  /**
   * People this campaign would give more than one gift: rows to send whose address another row of
   * the campaign also sends to (or already did). `rows`: the gifts beyond the first per person.
   */
  repeatsInCampaign: z.object({ people: z.number().int(), rows: z.number().int() }),
  /**
   * The rows to send per product they are ordered as (a gift per row), with their face value per
   * currency and, in `availability`, that product's stock as its availability answer says (every
   * product used is checked; the top-level `availability` is the campaign's own product's, used or not).
   */
  byProduct: z.array(
    z.object({
      productId: z.number().int(),
      name: z.string().nullable(),
      rows: z.number().int(),
      totals: z.array(moneySchema),
      availability: z.object({ inStock: z.boolean().nullable(), message: z.string().nullable() }).nullable(),
    }),
  ),
});

/** What one poll round did; `nextCheckInMs`: when the schedule would run the next one (30–60 s after a send, backing off to 15 min). */
export const pollRoundSchema = z.object({
  tracked: z.number().int(),
  requests: z.number().int(),
  settled: z.number().int(),
  /** Of `settled`, the gifts delivered (item COMPLETED) and those cancelled (or never paid): settled = delivered + cancelled. */
  delivered: z.number().int(),
  cancelled: z.number().int(),
  waiting: z.number().int(),
  /** Of `waiting`, orders whose acceptance link has expired. */
  expired: z.number().int(),
  error: z.string().nullable(),
  nextCheckInMs: z.number().int().nullable(),
  /** A request to the service failed, the first or a later one: the round did not finish (what it read is recorded). Absent otherwise. */
  serviceFailed: z.literal(true).optional(),
});

const mappingColumn = z.number().int().nullable();

export const csvOptionsSchema = z.object({
  delimiter: z.enum([',', ';', '\t']).optional(),
  /** Column index per field (every field of MAPPED_FIELDS), null to unmap; absent fields keep the detected mapping. */
  mapping: z
    .object(Object.fromEntries(MAPPED_FIELDS.map((field) => [field, mappingColumn])) as Record<MappedField, typeof mappingColumn>)
    .partial()
    .optional(),
});

const campaignId = z.object({ campaignId: z.string().min(1).max(64) });
const rowId = z.object({ rowId: z.number().int().positive() });
const ok = z.object({ ok: z.literal(true) });

/** A workbook sheet's name as the workbook has it (Excel allows 31 characters, LibreOffice more). */
const sheetInput = z.string().min(1).max(255);

/** The file as bytes, base64 so the same call works over IPC and JSON. */
const fileInput = z.object({
  fileName: z.string().max(255),
  bytesBase64: z.string().max(70_000_000),
});

export const contract = {
  'app:info': {
    input: z.object({}),
    output: z.object({
      version: z.string(),
      shell: z.enum(['desktop', 'browser', 'cli']),
      environment: environmentSchema,
      firstLaunch: z.boolean(),
      /** notice: what a missing keychain means for the person; detail: the keychain's own error, for support (shown folded). */
      keychain: z.object({ available: z.boolean(), notice: z.string().nullable(), detail: z.string().nullable().optional() }),
      sampleCsvName: z.string(),
      /** The engine's contractFingerprint() (shared/contract-fingerprint.ts): a window of another build refuses to start. */
      contract: z.string(),
    }),
  },
  'app:sampleCsv': { input: z.object({}), output: z.object({ fileName: z.string(), bytesBase64: z.string() }) },
  /** The recipient list template: an empty list with the columns the import reads and a note over each (the same file as `giftbatch template`). */
  'app:template': { input: z.object({ format: z.enum(TEMPLATE_FORMATS) }), output: z.object({ fileName: z.string(), bytesBase64: z.string() }) },
  'app:dismissWelcome': { input: z.object({}), output: ok },

  'environments:list': { input: z.object({}), output: z.object({ current: environmentSchema, environments: z.array(environmentInfoSchema) }) },
  'environments:select': { input: z.object({ environment: environmentSchema }), output: ok },
  'environments:update': {
    input: z.object({ environment: environmentSchema, baseUrl: z.string().max(2048).nullable().optional(), rate: z.number().positive().max(1000).optional() }),
    /** `keyCleared`: the address changed, so the key stored for the old one was removed; enter it again. */
    output: environmentInfoSchema.extend({ keyCleared: z.boolean() }),
  },
  'environments:setKey': { input: z.object({ environment: environmentSchema, key: z.string().min(1).max(4096) }), output: environmentInfoSchema },
  'environments:clearKey': { input: z.object({ environment: environmentSchema }), output: environmentInfoSchema },
  /** A poll round over every undelivered order of the environment's service, all campaigns at once. */
  'environments:checkNow': { input: z.object({ environment: environmentSchema }), output: pollRoundSchema },
  'environments:test': {
    input: z.object({ environment: environmentSchema }),
    output: z.object({ ok: z.boolean(), message: z.string(), products: z.number().int().nullable() }),
  },

  'products:list': {
    /** `currency`: the organiser's currency for products whose record states none. */
    input: z.object({ environment: environmentSchema, country: z.string().regex(/^[A-Z]{2}$/), currency: currencyInput.optional() }),
    /** `service`: the service the list came from, as messages name it ("the built-in simulator", "the sandbox service at https://…"). */
    output: z.object({ products: z.array(productSchema), unreadable: z.array(unreadableProductSchema), service: z.string() }),
  },
  /**
   * The supplier's stock of one product, as the service's availability answer says: asked when the
   * organiser picks a product, never for a whole list. `inStock` null: the answer did not say, or no
   * answer came (the pre-flight asks again before any send).
   */
  'products:availability': {
    input: z.object({ environment: environmentSchema, productId: z.number().int() }),
    output: z.object({ inStock: z.boolean().nullable(), message: z.string().nullable() }),
  },

  /** Everything the import screen needs before anything is stored: the parse, the mapping, every row's findings. */
  'campaigns:previewImport': {
    input: fileInput.extend({
      environment: environmentSchema,
      productId: z.number().int(),
      country: z.string().regex(/^[A-Z]{2}$/).optional(),
      currency: currencyInput.optional(),
      defaultAmount: z.string().max(32).nullable().optional(),
      csv: csvOptionsSchema.optional(),
      /** A workbook's sheet to read: needed when several hold rows (the preview then lists them); ignored for a CSV. */
      sheet: sheetInput.optional(),
      /** The campaign's default message as typed: every row's message is checked with its fields filled in. */
      message: z.string().max(1000).nullable().optional(),
      /**
       * Whether the answer lists the file's rows (`rows`): 'all' (the default) lists every row with
       * its findings; 'none' lists none (`rows` is []), for a caller that needs only the layout,
       * the totals, the problems and `defaultMessage`: a 100,000-row file then never crosses to it.
       */
      rows: z.enum(['all', 'none']).default('all'),
    }),
    output: z.object({
      /** How the file was read, told apart by its bytes: CSV text, or a workbook. */
      format: z.enum(FILE_FORMATS),
      /**
       * A workbook's sheets, each with its non-blank rows (the header included), and the one read;
       * null for a CSV. `sheet` null: several sheets hold rows and none was named, so none was read
       * (no headers, no rows): ask which one and preview again with `sheet`.
       */
      workbook: z.object({ sheets: z.array(z.object({ name: z.string(), rows: z.number().int() })), sheet: z.string().nullable() }).nullable(),
      /** A CSV's text encoding; for a workbook, its format ('xlsx', 'ods'). */
      encoding: z.string(),
      /** A CSV's delimiter; '' for a workbook. */
      delimiter: z.string(),
      headers: z.array(z.string()),
      mapping: z.record(z.string(), z.number().int()),
      detectedMapping: z.record(z.string(), z.number().int()),
      problems: z.array(z.object({ line: z.number().int(), message: z.string() })),
      /**
       * The file is no list of recipients at all (a letter, notes): one column of text, no header the
       * mapping knows, no e-mail address (shared/domain/csv/not-a-list.ts). Say so (notAListMessage), not its columns.
       * Absent: false.
       */
      notAList: z.boolean().optional(),
      /** Every row of the file with its findings; [] when asked with `rows: 'none'` (totals.rows still counts them). */
      rows: z.array(
        z.object({
          line: z.number().int(),
          name: z.string(),
          email: z.string(),
          amount: moneySchema.nullable(),
          message: z.string(),
          errors: z.array(issueSchema),
          warnings: z.array(issueSchema),
          /** The product it is checked against and would be ordered as: the one its gift column names, else the chosen one. */
          productId: z.number().int(),
        }),
      ),
      /**
       * The rows that would send the campaign's default message (no message of their own) and
       * cannot (a message error): how many, the first one's line, and its reason as the row's error
       * says it without "Line N: ". Null when there are none. Answered whatever `rows` asked.
       */
      defaultMessage: z.object({ rows: z.number().int(), firstLine: z.number().int(), reason: z.string() }).nullable(),
      totals: z.object({
        rows: z.number().int(),
        valid: z.number().int(),
        invalid: z.number().int(),
        duplicateEmails: z.number().int(),
        knownEmails: z.number().int(),
        amounts: z.array(moneySchema),
        /** The valid rows per product (a file of several gifts), with their face value per currency. */
        byProduct: z.array(z.object({ productId: z.number().int(), rows: z.number().int(), amounts: z.array(moneySchema) })),
        /**
         * What the draft would send under each choice for repeated recipients (all four
         * combinations of campaigns:create's `repeats`): the valid rows it keeps to send, the valid
         * rows it stores skipped by a repeat policy, and the kept rows' face value per currency and
         * per product. The same rule the create applies (shared/domain/skips.ts repeatSkipOf).
         */
        toSend: z.array(
          z.object({
            repeats: z.object({ inCampaign: z.enum(['skip', 'send']), earlier: z.enum(['skip', 'send']) }),
            rows: z.number().int(),
            skipped: z.number().int(),
            amounts: z.array(moneySchema),
            byProduct: z.array(z.object({ productId: z.number().int(), rows: z.number().int(), amounts: z.array(moneySchema) })),
          }),
        ),
      }),
      /** The product the rows were checked against, as the catalog has it now. */
      product: productSchema,
    }),
  },
  'campaigns:create': {
    input: fileInput.extend({
      environment: environmentSchema,
      productId: z.number().int(),
      country: z.string().regex(/^[A-Z]{2}$/).optional(),
      currency: currencyInput.optional(),
      name: z.string().trim().min(1).max(200),
      senderName: z.string().trim().min(1).max(200),
      /**
       * Repeated recipients, decided on purpose: a row whose address repeats an earlier line
       * (`inCampaign`), or whose recipient had a gift from an earlier campaign of the environment
       * (`earlier`), is stored skipped ('skip', the default) or sent like any row ('send').
       */
      repeats: z.object({ inCampaign: z.enum(['skip', 'send']), earlier: z.enum(['skip', 'send']) }).optional(),
      message: z.string().max(1000).nullable().optional(),
      defaultAmount: z.string().max(32).nullable().optional(),
      csv: csvOptionsSchema.optional(),
      /** A workbook's sheet to read; without it, a workbook with several sheets holding rows is 'invalid-input' naming them. */
      sheet: sheetInput.optional(),
      /**
       * The caller's own name for this create: while it runs, `campaigns:createProgress` events carry
       * it so the caller can tell its own progress from another window's. Without it, none is emitted.
       */
      progressId: z.string().min(1).max(100).optional(),
    }),
    /**
     * The new draft, and the product its rows were checked against. Stopped in time by
     * `campaigns:stopCreate`, it answers the error code 'stopped' instead, having stored nothing.
     */
    output: campaignSummarySchema.extend({ product: productSchema }),
  },
  /**
   * Asks the running `campaigns:create` named by `progressId` to stop. `outcome`: 'stopping', it
   * stops and answers 'stopped' with nothing stored (asking twice answers the same); 'saved', too
   * late: its rows are stored (or its last part is going in) and it answers the new draft, which
   * this changes nothing of; 'not-running', no create by that id runs in this app (it never
   * started, or ended without saving). `message` says it in words.
   */
  'campaigns:stopCreate': {
    input: z.object({ progressId: z.string().min(1).max(100) }),
    output: z.object({ outcome: z.enum(['stopping', 'saved', 'not-running']), message: z.string() }),
  },
  'campaigns:list': { input: z.object({}), output: z.object({ campaigns: z.array(campaignSummarySchema) }) },
  'campaigns:get': { input: campaignId, output: campaignSummarySchema },
  'campaigns:rows': {
    input: campaignId.extend({
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(20_000).default(200),
      states: z.array(rowStateSchema).optional(),
      search: z.string().max(200).optional(),
      /** Only these rows (by id), with the other filters: the rows a screen keeps in view after they left the states it asks for. */
      ids: z.array(z.number().int()).max(5_000).optional(),
      /** Only the rows held for a person (left `sending`, `heldAt` set): the ones the summary's `heldRows` counts. */
      held: z.literal(true).optional(),
    }),
    output: z.object({ rows: z.array(rowSchema), total: z.number().int() }),
  },
  'campaigns:preflight': {
    input: campaignId.extend({
      /**
       * When the environment's key is not the account the campaign was sent under, answer at once with
       * `accountChanged` and ask the service nothing under the new key (the command line does this
       * unless --same-account vouches for it).
       */
      stopIfAccountChanged: z.literal(true).optional(),
    }),
    output: preflightSchema,
  },
  /** Starts sending in the background; progress arrives as `campaign:progress` events. */
  /**
   * `totals`: what the person confirmed (the dialog's totals); if the rows to send add up to anything
   * else by then, nothing is sent. Every start runs the pre-flight; a failed one answers 'preflight'.
   */
  'campaigns:send': {
    input: campaignId.extend({
      confirmed: z.literal(true),
      totals: z.array(moneySchema).max(50).optional(),
      /** The person confirmed that the environment's key now is the same account the campaign was sent under. */
      sameAccount: z.literal(true).optional(),
      /** The person confirmed a second gift to recipients who already have one from this environment. */
      allowRepeats: z.literal(true).optional(),
      /**
       * Send nothing: only look up the rows left `sending` by their keys and record what they became
       * (the command line does this when its pre-flight failed, before anyone was asked to confirm).
       */
      lookUpOnly: z.literal(true).optional(),
      /**
       * The person looked up, at the service, the keys of the rows the campaign paused on as
       * 'unconfirmed' (an empty lookup that proves nothing) and found no order: send them again,
       * each under its own key.
       */
      resendUnconfirmed: z.literal(true).optional(),
    }),
    output: campaignSummarySchema,
  },
  'campaigns:pause': { input: campaignId, output: campaignSummarySchema },
  /**
   * The unsent rows (ready, invalid) checked again in place against the product as the catalog has it
   * now, each keeping its key (a new import would give every row a new key and could pay twice).
   */
  'campaigns:revalidate': { input: campaignId, output: z.object({ checked: z.number().int(), ready: z.number().int(), invalid: z.number().int(), campaign: campaignSummarySchema }) },
  /**
   * Every failed row back to ready, with its key and its values as they stand; nothing is sent until
   * the campaign is sent again. A retried row cannot be paid twice: a definite refusal means no order
   * exists under its key (after an unclear attempt that is confirmed by lookups), and every attempt
   * reuses that key, so were there one, the service would return it instead of charging again.
   */
  'campaigns:retryFailed': { input: campaignId, output: z.object({ requeued: z.number().int(), campaign: campaignSummarySchema }) },
  'campaigns:checkNow': { input: campaignId, output: pollRoundSchema },
  'campaigns:timeline': {
    input: campaignId.extend({ bucketMs: z.number().int().min(1000).max(86_400_000).default(60_000) }),
    output: z.object({ buckets: z.array(z.object({ at: z.number(), ordered: z.number().int(), delivered: z.number().int() })) }),
  },
  /** The delivery report's content; the desktop shell offers a save dialog, the browser downloads it. */
  'campaigns:report': { input: campaignId, output: z.object({ fileName: z.string(), csv: z.string(), savedTo: z.string().nullable(), rows: z.number().int() }) },
  /**
   * A new draft campaign from this one's rows that failed, whose orders were cancelled, or whose
   * acceptance link expired (`include`), each with its data under a NEW key: a new gift, sent the
   * usual way. The source's rows are not changed. Answers the new campaign.
   */
  'campaigns:followUp': {
    input: campaignId.extend({
      include: z.array(z.enum(FOLLOW_UP_KINDS)).min(1).max(FOLLOW_UP_KINDS.length),
      name: z.string().trim().min(1).max(200).optional(),
    }),
    output: campaignSummarySchema,
  },

  'rows:edit': {
    input: rowId.extend({
      name: z.string().max(500),
      email: z.string().max(500),
      amount: z.string().max(32).nullable(),
      message: z.string().max(2000).nullable(),
      /**
       * Another gift for the row (a gift per row): a product id, or a product's exact name, of the
       * campaign's country in the catalog it was created against, as the file's Product column names
       * one. Absent: the row keeps its product.
       */
      product: z.string().trim().min(1).max(500).optional(),
    }),
    output: rowSchema,
  },
  'rows:skip': { input: rowId, output: rowSchema },
  'rows:unskip': { input: rowId, output: rowSchema },
  'rows:retry': { input: rowId, output: rowSchema },
  /**
   * A row left mid-send whose order the person found in the service's own records: its record is read
   * by id (GET /v1/orders/{orderId}), must carry the row's key, and is recorded as the row's order,
   * checked against what the row asked (a difference flags the row).
   */
  'rows:recordOrder': { input: rowId.extend({ orderId: z.number().int().positive() }), output: rowSchema },
} as const;

export type Contract = typeof contract;
export type CallName = keyof Contract;
export type CallInput<C extends CallName> = z.input<Contract[C]['input']>;
export type CallOutput<C extends CallName> = z.output<Contract[C]['output']>;

export const events = {
  /** Batched: at most ~10 a second per campaign. `changedRowIds` lets a table refresh only what changed. */
  'campaign:progress': z.object({
    campaign: campaignSummarySchema,
    changedRowIds: z.array(z.number().int()),
  }),
  'campaign:finished': z.object({
    campaign: campaignSummarySchema,
    message: z.string(),
    /** The rows left `sending` that the run looked up by key before anything else, and how many had an order. */
    lookedUp: z.object({ checked: z.number().int(), ordered: z.number().int() }).nullable(),
  }),
  /**
   * How far a `campaigns:create` given a `progressId` is, a few times a second at most: the file
   * being read and checked (`phase` 'checking', `total` null), then its rows being stored (`stored`
   * of `total`, ending at total). None follows the call's answer.
   */
  'campaigns:createProgress': z.object({
    progressId: z.string(),
    phase: z.enum(['checking', 'storing']),
    stored: z.number().int().min(0),
    total: z.number().int().min(0).nullable(),
  }),
} as const;

export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export const errorCodes = [
  'invalid-input',
  'not-found',
  'configuration',
  'service-auth',
  'service-unreachable',
  'service-rejected',
  'preflight',
  /** The environment's key is not the one the campaign was sent under: confirm it is the same account (sameAccount). */
  'account-changed',
  /** Rows are for recipients who already have a gift from this environment: confirm a second one (allowRepeats). */
  'repeat-recipients',
  'conflict',
  'forbidden',
  /** Stopped on request before it changed anything (a `campaigns:create` stopped by `campaigns:stopCreate`: nothing stored). */
  'stopped',
  /** An answer that does not match the caller's contract: the window and the engine are from different builds. */
  'contract-mismatch',
  'internal',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** Errors cross the boundary as data, so the renderer can show the message and branch on the code. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: { code: ErrorCode; message: string } };

/** The typed client both shells give the renderer (preload's window.giftbatch, or HTTP in the browser). */
export type GiftbatchApi = {
  [C in CallName]: (input: CallInput<C>) => Promise<Result<CallOutput<C>>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

/**
 * The browser shell's event WebSocket carries the per-launch token as a subprotocol
 * (`Sec-WebSocket-Protocol`), never in its request line where a log would keep it; the browser's
 * WebSocket cannot set other headers. The server answers with EVENTS_PROTOCOL.
 */
export const EVENTS_PROTOCOL = 'giftbatch.events';
export const TOKEN_PROTOCOL_PREFIX = 'giftbatch.token.';

/**
 * The browser shell's `campaigns:create` request names its `progressId` in this header too
 * (URI-encoded), so the server knows the create while its body (the whole file) is still arriving:
 * a `campaigns:stopCreate` for it then is held, answered 'stopping', and the create answers 'stopped'.
 */
export const PROGRESS_ID_HEADER = 'x-giftbatch-progress-id';
