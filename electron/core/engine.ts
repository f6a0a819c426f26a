// The engine: one database, one keychain and one connection (rate limiter + client) per
// environment, the catalog, the pre-flight and the one gate every send passes (checkedSend). Every
// shell (the desktop app, the browser shell, the giftbatch command) reaches it only through the
// contract's handlers in core/app.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { formatMoney, totalsByCurrency, type Money } from '../../shared/domain/money.ts';
import { plural } from '../../shared/domain/plural.ts';
import type { ImportRequest, PreviewRequest } from './campaigns/importer.ts';
import { pollRound, type PollRoundResult } from './campaigns/poller.ts';
import { replacedGiftProblem } from './campaigns/replaced-gifts.ts';
import { nextPollDelay } from './campaigns/policy.ts';
import { createSendQueue, type RunOptions, type SendQueue, type SendQueueOptions, type SendResult } from './campaigns/send-queue.ts';
import { snapshotOf, unorderableReason } from './campaigns/products.ts';
import { systemClock, type Clock } from './clock.ts';
import { createConnections, serviceName, type Connection, type ConnectionOptions, type Connections } from './connections.ts';
import { openDatabase, type Db } from './db/open.ts';
import { processAlive, requestSendStop, sendLeaseLive, type HeldLease as HeldSendLease } from './db/repos/send-leases.ts';
import { requeueFailedRows } from './db/repos/recipient-edits.ts';
import { campaignCountry, campaignProducts, discardUnfinishedImports, getCampaign, listCampaigns, pauseInterrupted, setAccountFingerprint, type Campaign, type ProductSnapshot } from './db/repos/campaigns.ts';
import { countByState, faceValueTotals, learnedCurrency, newestTrackedOrderAt, repeatRecipientLines, repeatsInCampaign, toSendByProduct } from './db/repos/recipients.ts';
import { DATABASE_FILE, openDataFolder } from './paths.ts';
import { openSecretStore, type SecretStore } from './secrets/secret-store.ts';
import type { Availability, Product } from './service/index.ts';
import { NO_CURRENCY, parseProduct } from './service/schemas.ts';

/** What a caller may set on a send queue (concurrency, backoff, the circuit breaker, a log): the rest is the connection's. */
export type QueueTuning = Omit<SendQueueOptions, 'db' | 'client' | 'clock' | 'limiter'>;

export interface EngineOptions {
  dataDir: string;
  clock?: Clock;
  secrets?: SecretStore;
  env?: NodeJS.ProcessEnv;
  /** This process's service address and rate (the CLI's --base-url, --rate): see createConnections. */
  connection?: Pick<ConnectionOptions, 'baseUrl' | 'rate'>;
}

/** The one sentence for a campaign id the data folder does not hold, wherever it was asked for (the CLI, the app). */
export function campaignNotFoundMessage(campaignId: string, dataDir: string): string {
  return `There is no campaign "${campaignId}" in ${dataDir}. It may have been made with another data folder; the campaigns list (giftbatch status) shows the ones this folder holds.`;
}

export class CampaignNotFoundError extends Error {
  override readonly name = 'CampaignNotFoundError';
  constructor(
    readonly campaignId: string,
    dataDir: string,
  ) {
    super(campaignNotFoundMessage(campaignId, dataDir));
  }
}

/** A failure of the service itself (unreachable, key refused), as opposed to a problem with a row. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  constructor(
    message: string,
    readonly kind: 'auth' | 'unreachable' | 'rejected' | 'not-found' | 'currency' | 'account',
  ) {
    super(message);
  }
}

export interface Catalog {
  orderable: Product[];
  unorderable: { product: Product; reason: string }[];
  /** Records we could not read, never dropped silently: what is missing or odd in each. */
  unreadable: UnreadableProduct[];
}

export interface UnreadableProduct {
  id: number | null;
  name: string | null;
  /** "the service does not state its currency …", "product.amount: expected amount, or min_amount and max_amount". */
  problem: string;
  /** Only its currency is missing: stating one makes it orderable. */
  needsCurrency: boolean;
  raw: unknown;
}

export interface CatalogOptions {
  /** The organiser's currency for products whose record states none (CLI --currency). */
  currency?: string;
}

export interface PreflightResult {
  ok: boolean;
  problems: string[];
  product: Product | null;
  availability: Availability | null;
  /** Face value of the rows about to be sent, per product currency. */
  totals: Money[];
  rowsToSend: number;
  /**
   * Ready rows whose recipient already has a gift ordered from this environment in another campaign:
   * sending them needs its own confirmation (a second gift to the same person).
   */
  repeatRecipients: { count: number; lines: number[] };
  /** People this campaign itself would give more than one gift (rows the organiser chose to send anyway). */
  repeatsInCampaign: { people: number; rows: number };
  /**
   * The rows to send per product they are ordered as (a gift per row), with their face value per
   * currency and that product's stock as its availability answer says (null: no answer to read).
   */
  byProduct: { productId: number; name: string | null; rows: number; totals: Money[]; availability: Availability | null }[];
}

export interface CheckedSendOptions extends RunOptions {
  /** The person confirmed that a key other than the one the campaign was sent under is the same account. */
  sameAccount?: boolean;
  /** A pre-flight of this campaign that passed a moment ago (the app's Send checks, then starts). */
  checked?: PreflightResult;
  /** The totals the person confirmed: if the rows to send now add up to anything else, nothing is sent. */
  confirmedTotals?: readonly Money[];
  /** The person confirmed sending to recipients who already have a gift from this environment. */
  allowRepeats?: boolean;
  /**
   * Send nothing: only look up the rows left `sending` by key and record what they became (the CLI,
   * when its pre-flight failed before anyone was asked to confirm).
   */
  lookUpOnly?: boolean;
}

export interface PreviewOptions {
  defaultAmount?: Money | null;
  csv?: ImportRequest['csv'];
}

export type CampaignRequest = Omit<ImportRequest, 'environment' | 'baseUrl' | 'product' | 'productId'> & { product: Product };

/**
 * What the importer checks a file against (the app's import worker, for every shell): the
 * product as snapshotted, and the environment whose earlier recipients count as known.
 */
export function previewRequestOf(connection: Pick<Connection, 'environment'>, bytes: Uint8Array, product: Product, opts: PreviewOptions = {}): PreviewRequest {
  return {
    bytes,
    environment: connection.environment,
    productId: product.id,
    product: snapshotOf(product),
    ...(opts.defaultAmount ? { defaultAmount: opts.defaultAmount } : {}),
    ...(opts.csv ? { csv: opts.csv } : {}),
  };
}

/** What the importer stores a campaign from (the app's import worker, for every shell); refuses a product that cannot be ordered. */
export function importRequestOf(connection: Pick<Connection, 'environment' | 'baseUrl'>, request: CampaignRequest): ImportRequest {
  const reason = unorderableReason(request.product);
  if (reason) throw new ServiceError(`Product ${request.product.id} cannot be ordered: ${reason}.`, 'rejected');
  return {
    ...request,
    environment: connection.environment,
    baseUrl: connection.baseUrl,
    productId: request.product.id,
    product: snapshotOf(request.product),
  };
}

export interface Engine {
  readonly db: Db;
  readonly dataDir: string;
  readonly secrets: SecretStore;
  readonly connections: Connections;
  readonly clock: Clock;
  /** The connection a campaign was created against (its environment and service address). */
  connectionFor(campaign: Campaign, opts?: Omit<ConnectionOptions, 'baseUrl'>): Promise<Connection>;
  catalog(connection: Connection, country?: string, opts?: CatalogOptions): Promise<Catalog>;
  findProduct(connection: Connection, productId: number, country?: string, opts?: CatalogOptions): Promise<Product>;
  preflight(campaignId: string): Promise<PreflightResult>;
  /**
   * The send queue of a connection: one per connection in this process, whoever sends (a command, a
   * window), so every send of an account shares its limiter and its in-flight bookkeeping. `tuning`
   * applies when the queue is made (the first caller's; tests tune it).
   */
  queueFor(connection: Connection, tuning?: QueueTuning): SendQueue;
  /**
   * Refuses (ServiceError 'account') to send or reconcile a campaign under another key than the one it
   * was sent under, unless `sameAccount` is confirmed: another account could re-order the rows whose
   * orders it does not find. Only checks: the run that starts (checkedSend) records the key it runs
   * under as the campaign's from then on (a fingerprint, never the key).
   */
  checkAccount(campaignId: string, sameAccount?: boolean): Promise<void>;
  /**
   * Asks the other process sending the campaign (by its live lease) to pause it; it sees the request
   * within seconds. Returns who was asked, or null when no other process is sending it.
   */
  askToPause(campaignId: string): HeldSendLease | null;
  /**
   * Every product of the campaign (its own, and those its rows name) as the catalog has it now, to
   * check its unsent rows again against (revalidate); refused when one's currency changed.
   */
  productsNow(campaignId: string): Promise<Map<number, ProductSnapshot>>;
  /** Every failed row back to ready, keys kept (see the contract's campaigns:retryFailed); how many. */
  retryFailed(campaignId: string): number;
  /** One poll round; `onChanged` hears of each row it changed. */
  poll(connection: Connection, campaignId?: string, signal?: AbortSignal, onChanged?: (campaignId: string, rowId: number) => void): Promise<PollRoundResult>;
  /** Milliseconds until the next poll round by the schedule: 30–60 s after a send, backing off to 15 min. */
  nextPollDelay(connection: Connection, campaignId?: string): number;
  campaigns(): Campaign[];
  campaign(campaignId: string): Campaign;
  close(): Promise<void>;
}

export async function openEngine(options: EngineOptions): Promise<Engine> {
  const clock = options.clock ?? systemClock;
  // Private: it holds every recipient's name and address, and what was ordered for them.
  openDataFolder(options.dataDir);
  const db = openDatabase(join(options.dataDir, DATABASE_FILE));
  const secrets = options.secrets ?? (await openSecretStore());
  const connections = createConnections({
    db,
    dataDir: options.dataDir,
    secrets,
    clock,
    ...(options.env ? { env: options.env } : {}),
    ...(options.connection ? { defaults: options.connection } : {}),
  });
  // A campaign that was sending when the last process died is paused as 'interrupted': sending
  // needs a person's Resume; polling resumes by itself.
  pauseInterrupted(db, clock.now(), (id) => sendLeaseLive(db, id, Date.now()));
  // An app import on this machine whose process is gone stopped half-way: remove what it stored.
  discardUnfinishedImports(db, (marker) => {
    const [host, pid] = marker.split(' ');
    return host === hostname() && !processAlive(Number(pid));
  });

  // One queue per connection, so one campaign is never sent twice at once in this process.
  const queues = new WeakMap<Connection, SendQueue>();

  const campaign = (id: string): Campaign => {
    const found = getCampaign(db, id);
    if (!found) throw new CampaignNotFoundError(id, options.dataDir);
    return found;
  };

  const engine: Engine = {
    db,
    dataDir: options.dataDir,
    secrets,
    connections,
    clock,

    connectionFor(c, opts = {}) {
      return connections.get(c.environment, { ...opts, baseUrl: c.baseUrl });
    },

    async catalog(connection, country, opts = {}) {
      const outcome = await connection.client.listAllProducts(country);
      if (outcome.kind !== 'ok') throw serviceError(connection, outcome);
      const catalog: Catalog = { orderable: [], unorderable: [], unreadable: [] };
      const add = (product: Product) => {
        const reason = unorderableReason(product);
        if (reason) catalog.unorderable.push({ product, reason });
        else catalog.orderable.push(product);
      };
      outcome.value.products.forEach(add);
      for (const row of outcome.value.invalid) {
        const read = readWithoutCurrency(db, connection, row.raw, country, opts.currency);
        if ('product' in read) add(read.product);
        else catalog.unreadable.push(read.unreadable);
      }
      return catalog;
    },

    async findProduct(connection, productId, country, opts = {}) {
      return productIn(await engine.catalog(connection, country, opts), productId, connection, country);
    },
    async preflight(campaignId) {
      const c = campaign(campaignId);
      const connection = await engine.connectionFor(c);
      const problems: string[] = [];
      const country = campaignCountry(c) ?? undefined;
      // A product whose record states no currency is read in the one the campaign was validated in.
      const catalog = await engine.catalog(connection, country, { currency: c.product.currency });
      const known = [...catalog.orderable, ...catalog.unorderable.map((u) => u.product)];
      const snapshots = campaignProducts(db, c);
      // Every product the rows to send are ordered as (a gift per row), the campaign's own first; the
      // campaign's own is checked even when no row names it (an empty draft says so too).
      const toSend = toSendByProduct(db, campaignId).map((g) => ({ ...g, productId: g.productId ?? c.productId }));
      const ids = [c.productId, ...new Set(toSend.map((g) => g.productId).filter((id) => id !== c.productId))];
      let product: Product | null = null;
      let availability: Availability | null = null;
      const stock = new Map<number, Availability | null>();
      for (const id of ids) {
        const now = known.find((p) => p.id === id) ?? null;
        const checked = await checkProductNow(connection, campaignId, id, now, snapshots.get(id) ?? null, problems);
        stock.set(id, checked);
        if (id === c.productId) {
          product = now;
          availability = checked;
        }
      }
      // A follow-up's rows that replace a gift whose link expired: that gift read again (replaced-gifts.ts).
      const replaced = await replacedGiftProblem(db, campaignId, () => clock.now(), (source) => engine.poll(connection, source));
      if (replaced !== null) problems.push(replaced);
      // Aggregates, not every row read and parsed: the pre-flight runs before every start and resume.
      const counts = countByState(db, campaignId);
      const repeats = repeatRecipientLines(db, campaignId, c.environment);
      const byProduct = ids
        .map((id) => {
          const rows = toSend.filter((g) => g.productId === id);
          return {
            productId: id,
            name: snapshots.get(id)?.name ?? null,
            rows: rows.reduce((n, g) => n + g.rows, 0),
            totals: totalsByCurrency(rows.flatMap((g) => g.totals)),
            availability: stock.get(id) ?? null,
          };
        })
        .filter((g) => g.rows > 0);
      return {
        ok: problems.length === 0,
        problems,
        product,
        availability,
        totals: faceValueTotals(db, campaignId, ['ready', 'sending']),
        rowsToSend: counts.ready + counts.sending,
        repeatRecipients: repeats,
        repeatsInCampaign: repeatsInCampaign(db, campaignId),
        byProduct,
      };
    },

    async productsNow(campaignId) {
      const c = campaign(campaignId);
      const connection = await engine.connectionFor(c);
      const country = campaignCountry(c) ?? undefined;
      const catalog = await engine.catalog(connection, country, { currency: c.product.currency });
      const now = new Map<number, ProductSnapshot>();
      for (const [id, checked] of campaignProducts(db, c)) {
        const product = productIn(catalog, id, connection, country);
        if (product.currency !== checked.currency) {
          throw new ServiceError(
            `Product ${id} is now priced in ${product.currency}, and its rows' amounts are in ${checked.currency}: they cannot be checked again in place. ` +
              'Skip the unsent rows and import a list with amounts in the new currency; rows already ordered keep their orders.',
            'rejected',
          );
        }
        now.set(id, snapshotOf(product));
      }
      return now;
    },

    queueFor(connection, tuning = {}) {
      let queue = queues.get(connection);
      if (!queue) {
        queue = createSendQueue({ ...tuning, db, client: connection.client, clock, limiter: connection.limiter, accountFingerprint: connection.accountFingerprint });
        queues.set(connection, queue);
      }
      return queue;
    },

    async checkAccount(campaignId, sameAccount = false) {
      const c = campaign(campaignId);
      checkAccountOf(engine, await engine.connectionFor(c), c, sameAccount, false);
    },

    askToPause(campaignId) {
      campaign(campaignId);
      return requestSendStop(db, campaignId, Date.now());
    },

    retryFailed(campaignId) {
      campaign(campaignId);
      return requeueFailedRows(db, campaignId, clock.now());
    },

    poll(connection, campaignId, signal, onChanged) {
      return pollRound(
        { db, client: connection.client, clock },
        { environment: connection.environment, baseUrl: connection.baseUrl, ...(campaignId ? { campaignId } : {}) },
        { ...(signal ? { signal } : {}), ...(onChanged ? { onChanged } : {}) },
      );
    },

    nextPollDelay(connection, campaignId) {
      // One aggregate, not a spread of every tracked row (which throws past ~125,000 arguments).
      const newest = newestTrackedOrderAt(db, { environment: connection.environment, baseUrl: connection.baseUrl, ...(campaignId ? { campaignId } : {}) });
      return nextPollDelay(clock.now() - (newest ?? 0), Math.random);
    },

    campaigns: () => listCampaigns(db),
    campaign,

    async close() {
      await connections.close();
      db.close();
    },
  };
  return engine;
}

/**
 * The product of a catalog the engine just read (engine.catalog), or the error that says why it is
 * not there: its currency is unknown (state one), it cannot be read, or the account has no such id.
 */
export function productIn(catalog: Catalog, productId: number, connection: Connection, country?: string): Product {
  const product = [...catalog.orderable, ...catalog.unorderable.map((u) => u.product)].find((p) => p.id === productId);
  if (product) return product;
  const unreadable = catalog.unreadable.find((u) => u.id === productId);
  if (unreadable?.needsCurrency) {
    throw new ServiceError(
      `Product ${productId} of ${serviceName(connection)}: ${unreadable.problem}. State the currency its amounts are in ` +
        '(`--currency CCC` on the command line, the currency field in the app); the first order confirms it.',
      'currency',
    );
  }
  throw new ServiceError(
    unreadable
      ? `Product ${productId} of ${serviceName(connection)} cannot be read: ${unreadable.problem}.`
      : `Product ${productId} is not in the catalog of ${serviceName(connection)}${country ? ` for ${country}` : ''}. ` +
          'Product ids differ per account and environment: list them with `giftbatch products --country CC`.',
    'not-found',
  );
}

/**
 * One product of a campaign as the catalog has it now, for the pre-flight: still there, orderable,
 * at the price its rows were checked against, and in stock; each problem is pushed in words.
 * Returns the supplier's stock answer, when it gave one.
 */
async function checkProductNow(
  connection: Connection,
  campaignId: string,
  productId: number,
  now: Product | null,
  checkedAgainst: ProductSnapshot | null,
  problems: string[],
): Promise<Availability | null> {
  if (!now) {
    problems.push(`Product ${productId} is no longer in the catalog.`);
    return null;
  }
  const reason = unorderableReason(now);
  if (reason) problems.push(`Product ${productId} cannot be ordered any more: ${reason}.`);
  if (checkedAgainst === null) {
    // Never the case for rows an import stored; the order body refuses such a row in any case.
    problems.push(`Rows of product ${productId} were never checked against it: check the unsent rows again (giftbatch revalidate ${campaignId}).`);
  } else if (priceKey(snapshotOf(now)) !== priceKey(checkedAgainst)) {
    problems.push(
      `Product ${productId} changed since the rows were checked (price or currency): check the unsent rows again against it as it is now ` +
        `(the app's "Check rows again", or giftbatch revalidate ${campaignId}). Each keeps its key, so nothing already ordered is ordered again.`,
    );
  }
  const checked = await connection.client.getAvailability(productId);
  if (checked.kind === 'auth') throw serviceError(connection, checked);
  if (checked.kind !== 'ok') return null;
  if (checked.value.inStock === false) {
    problems.push(
      `The supplier reports product ${productId} out of stock${checked.value.message ? ` (${checked.value.message})` : ''}: ` +
        'orders would be accepted and charged, but gifts would stay pending until stock returns. ' +
        'Send it when the supplier has stock again (every send checks again), or make a campaign with another gift.',
    );
  }
  return checked.value;
}

/**
 * The one way a campaign starts or resumes sending, in every shell: the pre-flight first (the
 * product still in the catalog, on sale, by e-mail, in stock, at the price the rows were checked
 * against, and the totals the person confirmed). When it fails nothing is sent, but the campaign's
 * `sending` rows are still looked up by key and recorded: reading never waits for a pre-flight.
 */
export async function checkedSend(engine: Engine, connection: Connection, queue: SendQueue, campaignId: string, opts: CheckedSendOptions = {}): Promise<SendResult> {
  // Synchronous, like the run's start: with a pre-flight that just passed, the campaign is marked
  // sending before the first await, and the caller's answer shows it.
  checkAccountOf(engine, connection, engine.campaign(campaignId), opts.sameAccount === true, true);
  const check = opts.checked ?? (await engine.preflight(campaignId));
  const problems = preflightProblems(check, opts.confirmedTotals, opts.allowRepeats === true);
  if (problems.length === 0 && !opts.lookUpOnly) return queue.run(campaignId, opts);
  const detail = problems.length > 0 ? preflightDetail(problems) : 'Nothing was sent: only the rows that were being sent were looked up by key.';
  return queue.hold(campaignId, detail, opts.signal ? { signal: opts.signal } : {});
}

/** See Engine.checkAccount. Synchronous: scrypt of the key once per run start (about 50 ms). */
export function checkAccountOf(
  engine: Pick<Engine, 'db' | 'clock'>,
  connection: Pick<Connection, 'environment' | 'baseUrl' | 'url' | 'accountFingerprint'>,
  c: Campaign,
  sameAccount: boolean,
  record: boolean,
): void {
  const recorded = c.accountFingerprint;
  if (recorded !== null && connection.accountFingerprint(recorded) === recorded) return;
  if (recorded !== null && !sameAccount) {
    throw new ServiceError(
      `"${c.name}" was sent under another API key than the one set now for ${serviceName(connection)}. Nothing was sent or looked up: ` +
        'under another account its orders would not be found, and rows could be ordered a second time. Set the key it was sent with, ' +
        'or confirm that the new key is the same account (the app asks; giftbatch resume --same-account).',
      'account',
    );
  }
  if (record) setAccountFingerprint(engine.db, c.id, connection.accountFingerprint(), engine.clock.now());
}

/** What stops a send: the pre-flight's problems, and totals that are not the ones confirmed. */
export function preflightProblems(check: PreflightResult, confirmedTotals?: readonly Money[], allowRepeats = false): string[] {
  const problems = [...check.problems];
  if (check.repeatRecipients.count > 0 && !allowRepeats) problems.push(repeatRecipientsProblem(check.repeatRecipients));
  if (confirmedTotals && !sameTotals(confirmedTotals, check.totals)) {
    problems.push(
      `The rows to send now add up to ${check.totals.map(formatMoney).join(' + ') || 'nothing'}, not the ${confirmedTotals.map(formatMoney).join(' + ') || 'nothing'} that was confirmed: check the new totals and confirm them.`,
    );
  }
  return problems;
}

/** Rows for recipients who already have a gift from this environment: what a person must confirm. */
export function repeatRecipientsProblem(repeats: PreflightResult['repeatRecipients']): string {
  return (
    `${plural(repeats.count, 'row')} (line${repeats.count === 1 ? '' : 's'} ${repeats.lines.join(', ')}${repeats.count > repeats.lines.length ? ', …' : ''}) ` +
    `${repeats.count === 1 ? 'is for a recipient who already has' : 'are for recipients who already have'} a gift ordered from this environment in another campaign: ` +
    `confirm that ${repeats.count === 1 ? 'this one gets' : 'they get'} a second one (the app's checkbox; --send-repeats on the command line), or skip ${repeats.count === 1 ? 'that row' : 'those rows'}.`
  );
}

export const preflightDetail = (problems: readonly string[]): string => `Pre-flight: ${problems.join(' ')} Nothing was sent.`;

function sameTotals(a: readonly Money[], b: readonly Money[]): boolean {
  const key = (list: readonly Money[]) => totalsByCurrency(list).map((m) => `${m.currency} ${m.minor}`).join(',');
  return key(a) === key(b);
}



/** What a campaign's amounts were validated against: the price and its currency. */
function priceKey(p: ProductSnapshot): string {
  return p.priceKind === 'fixed' ? `${p.currency} ${p.amountMinor}` : `${p.currency} ${p.minMinor}-${p.maxMinor}`;
}

// The client's messages for a refused key and for no clear answer already name the request and say
// what to check (service/http.ts); a refusal's message is the service's own words.
export function serviceError(connection: Connection, outcome: { kind: string; message: string; endpoint: string }): ServiceError {
  const service = serviceName(connection, { start: true });
  if (outcome.kind === 'auth') return new ServiceError(`${service} refused the API key. ${outcome.message}`, 'auth');
  if (outcome.kind === 'rejected') return new ServiceError(`${service} refused ${outcome.endpoint}: ${outcome.message}`, 'rejected');
  return new ServiceError(`${service} could not be reached or gave no clear answer. ${outcome.message} Try again later.`, 'unreachable');
}

/**
 * A product record the client could not read. One that lacks only its currency (the spec's product
 * table has no such field) is read in the organiser's currency, else in the one its earlier orders
 * on this service were issued in; without either it is listed as needing one.
 */
function readWithoutCurrency(
  db: Db,
  connection: Connection,
  raw: unknown,
  country: string | undefined,
  stated: string | undefined,
): { product: Product } | { unreadable: UnreadableProduct } {
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const id = typeof record.id === 'number' && Number.isSafeInteger(record.id) ? record.id : typeof record.id === 'string' && /^\d+$/.test(record.id) ? Number(record.id) : null;
  const name = typeof record.name === 'string' ? record.name : null;
  const first = parseProduct(raw);
  const problem = first.ok ? '' : (first.issues[0] ?? 'unreadable').replace(/^product\./, '');
  const needsCurrency = !first.ok && first.issues.length === 1 && first.issues[0] === `product.currency: ${NO_CURRENCY}`;
  if (needsCurrency) {
    const learned = stated === undefined && id !== null ? learnedCurrency(db, { environment: connection.environment, baseUrl: connection.baseUrl, productId: id, country: country ?? null }) : null;
    const currency = stated ?? learned;
    if (currency) {
      const read = parseProduct(raw, { fallbackCurrency: currency });
      if (read.ok) return { product: { ...read.value, currencySource: stated ? 'stated' : 'learned' } };
    }
    return { unreadable: { id, name, problem: NO_CURRENCY, needsCurrency: true, raw } };
  }
  return { unreadable: { id, name, problem, needsCurrency: false, raw } };
}
