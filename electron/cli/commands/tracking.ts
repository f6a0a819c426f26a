// giftbatch status / poll / report: what happened to a campaign, asking the service where needed.
import { resolve } from 'node:path';
import type { CallOutput } from '../../../shared/contract.ts';
import { plural } from '../../../shared/domain/plural.ts';
import { settledText } from '../../../shared/domain/poll-words.ts';
import { writeFileAtomically } from '../../core/campaigns/report.ts';
import { campaignStatus, failedFollowedUpNote, failedRowsHint, type CampaignStatus } from '../status.ts';
import { EXIT, UsageError } from '../exit-codes.ts';
import { checkOutFile, commonOf, out, parseCommand, positiveNumber, printJson, say, withService, type Cli } from '../options.ts';

const STATUS_HELP = `Usage: giftbatch status [CAMPAIGN_ID] [--json]
One campaign's counts and charged totals; without an id, every campaign.`;

export function statusLine(s: CampaignStatus): string {
  const c = s.counts;
  const money = (list: CampaignStatus['charged']) => list.map((m) => `${m.currency} ${m.amount}`).join(', ');
  const charged = money(s.charged) || 'nothing';
  const cancelled = money(s.charged_cancelled);
  const expired = money(s.charged_expired);
  const pause = s.send_state === 'paused' ? ` (${s.paused_reason}${s.paused_detail ? `: ${s.paused_detail}` : ''})` : '';
  return (
    `${s.id}  ${s.name} [${s.environment}, ${productsText(s)}] ${s.send_state}${pause}\n` +
    // The campaign screen's words: To send (ready and sending: those being sent said apart), Need fixing.
    `  to send ${c.ready + c.sending}${c.sending > 0 ? ` (${c.sending} being sent)` : ''}, ordered ${c.ordered}, delivered ${c.delivered}, failed ${c.failed}, ` +
    `cancelled ${c.cancelled}, skipped ${c.skipped}, need fixing ${c.invalid}; charged ${charged}${s.uncharged_orders ? ' so far' : ''}` +
    (cancelled ? ` (of which ${cancelled} for orders cancelled or never paid)` : '') +
    (expired ? ` (of which ${expired} for gifts whose recipient link expired unaccepted)` : '') +
    (s.uncharged_orders ? `\n  ${unchargedNote(s)}` : '') +
    (s.acceptance_expired ? `\n  ${plural(s.acceptance_expired, 'recipient link')} expired without acceptance${expiredNote(s)}` : '') +
    (s.last_checked_at ? `\n  last checked ${s.last_checked_at.slice(0, 19).replace('T', ' ')} UTC` : '') +
    (failedFollowedUpNote(s) !== null ? `\n  ${failedFollowedUpNote(s) ?? ''}` : '') +
    (s.flagged ? `\n  ${plural(s.flagged, 'row')} flagged: the service's answer disagreed with what ${s.flagged === 1 ? 'it' : 'they'} asked, or could not be read (the report's discrepancy column names ${s.flagged === 1 ? 'it' : 'each'})` : '')
  );
}

/**
 * The charged total leaves out orders whose charge the service has not stated yet (their answer
 * left out the price; a poll reads it from each order's record): say so, and what reads them.
 */
export function unchargedNote(s: Pick<CampaignStatus, 'id' | 'uncharged_orders'>): string {
  const n = s.uncharged_orders;
  return `${n === 1 ? "1 order's charge is" : `${n} orders' charges are`} not stated by the service yet and not in that total: \`giftbatch poll ${s.id}\` reads ${n === 1 ? 'it' : 'them'}`;
}

/**
 * What became of the expired links: the follow-up campaigns that took them ("taken by follow-up
 * campaign Speakers again (c_…)"), and the command that sends the others a new gift.
 */
export function expiredNote(s: Pick<CampaignStatus, 'id' | 'acceptance_expired_to_follow_up' | 'acceptance_expired_followed_up'>): string {
  const taken = s.acceptance_expired_followed_up;
  const left = s.acceptance_expired_to_follow_up;
  const takenBy = taken.map((f) => `${f.name} (${f.id})`);
  const campaigns = takenBy.length === 1 ? `follow-up campaign ${takenBy[0]}` : `follow-up campaigns ${takenBy.join(', ')}`;
  const run = `run \`giftbatch follow-up ${s.id} --expired\` to send ${left === 1 ? 'it' : 'them'} a new gift`;
  if (taken.length === 0) return left > 0 ? `: ${run}` : '';
  const count = taken.reduce((n, f) => n + f.rows, 0);
  if (left === 0) return ` (taken by ${campaigns})`;
  return ` (${count} taken by ${campaigns}); ${left} not yet: ${run}`;
}

/**
 * "product 1615302", or for a campaign of several gifts each by id and name: "2 products: 1615302
 * (Northwind Books $25), 1615400 (Voyager $100)". The products its rows use: a follow-up whose rows
 * are all another gift says that one, not its own (the window says the same: campaignProductsText).
 */
export function productsText(s: Pick<CampaignStatus, 'product_id' | 'products'>): string {
  if (s.products.length <= 1) return `product ${s.products[0]?.product_id ?? s.product_id}`;
  return `${s.products.length} products: ${s.products.map((p) => (p.name ? `${p.product_id} (${p.name})` : String(p.product_id))).join(', ')}`;
}

export async function statusCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, {}, STATUS_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const id = parsed.positionals[0];
  return withService(common, {}, async (cli) => {
    if (id) {
      const status = campaignStatus(await cli.call('campaigns:get', { campaignId: id }));
      if (common.json) printJson(status);
      else {
        out(statusLine(status));
        // The failed rows to retry: why, and what to do next (the window's banner says the same).
        const failed = failedRowsHint(status, id);
        if (failed !== null) out(`  ${failed}`);
      }
      return EXIT.ok;
    }
    const all = (await cli.call('campaigns:list', {})).campaigns.map(campaignStatus);
    if (common.json) printJson(all);
    else if (all.length === 0) out(`No campaigns yet in ${cli.dataDir}.`);
    else for (const s of all) out(statusLine(s));
    return EXIT.ok;
  });
}

const MIN_SERVICE_INTERVAL_S = 10;

const POLL_HELP = `Usage: giftbatch poll [CAMPAIGN_ID] [--until-settled] [--timeout S] [--interval S] [--json]
Asks the service about every undelivered order (one campaign's, or all of the environment's).
--until-settled keeps polling until nothing is pending (recipient-details gifts may take days, so
give --timeout); --interval overrides the schedule (30–60 s early, backing off to 15 min); for a
service that is not on this machine it is at least 10 s.`;

export async function pollCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(
    argv,
    { 'until-settled': { type: 'boolean' }, timeout: { type: 'string' }, interval: { type: 'string' } },
    POLL_HELP,
  );
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const id = parsed.positionals[0];
  const timeoutS = positiveNumber(parsed.values.timeout, '--timeout');
  const intervalS = positiveNumber(parsed.values.interval, '--interval');
  // Ctrl-C, SIGTERM and --timeout stop the command wherever it is, a round in progress included:
  // the round cancels its request, starts no other, and answers how far it got (poller.ts).
  const controller = new AbortController();
  let stoppedBy: 'SIGINT' | 'SIGTERM' | 'timeout' | null = null;
  const stop = (why: 'SIGINT' | 'SIGTERM' | 'timeout') => {
    if (controller.signal.aborted) return;
    stoppedBy = why;
    controller.abort();
  };
  const onSigint = () => stop('SIGINT');
  const onSigterm = () => stop('SIGTERM');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  const deadline = timeoutS ? Date.now() + timeoutS * 1000 : Infinity;
  const deadlineTimer = timeoutS ? setTimeout(() => stop('timeout'), timeoutS * 1000) : null;
  try {
    return await withService(common, { stopOn: controller.signal }, async (cli) => {
      // A real service asks for 30–60 s between rounds (the service's polling guidance,
      // docs/service-api.md): never closer than 10 s there. The simulator, and any service on this
      // machine, takes any pace (the tests use that). Checked before the service is asked anything.
      const service = id ? await campaignService(cli, id) : await environmentService(cli, common.env, common.baseUrl);
      const local = service.environment === 'simulator' || (service.url !== null && isLoopback(service.url));
      const floorS = local ? 0.1 : MIN_SERVICE_INTERVAL_S;
      if (intervalS !== undefined && intervalS < floorS) {
        throw new UsageError(`--interval ${intervalS}: the ${service.environment} service is polled at most every ${floorS} s (the service asks for 30–60 s between rounds).`);
      }
      const round = () => (id ? cli.call('campaigns:checkNow', { campaignId: id }) : cli.call('environments:checkNow', { environment: common.env }));
      let rounds = 0;
      let last: CallOutput<'campaigns:checkNow'> = { tracked: 0, requests: 0, settled: 0, delivered: 0, cancelled: 0, waiting: 0, expired: 0, error: null, nextCheckInMs: null };
      let cutShort = false;
      while (!controller.signal.aborted) {
        last = await round();
        rounds += 1;
        cutShort = controller.signal.aborted;
        report(last, common.json);
        if (!parsed.values['until-settled'] || last.waiting === 0 || controller.signal.aborted) break;
        const wait = intervalS !== undefined ? intervalS * 1000 : (last.nextCheckInMs ?? MIN_SERVICE_INTERVAL_S * 1000);
        if (Date.now() + wait > deadline) {
          stop('timeout');
          break;
        }
        await sleep(wait, controller.signal);
      }
      if (stoppedBy) say(stoppedBy === 'timeout' ? `poll: --timeout ${timeoutS} s reached; ${plural(last.waiting, 'order')} still waiting.` : `poll: stopped by ${stoppedBy}.`);
      const status = id ? campaignStatus(await cli.call('campaigns:get', { campaignId: id })) : null;
      const code = pollExitCode(last, stoppedBy, cutShort);
      if (code === EXIT.unreachable) say(unfinishedRound(last));
      if (common.json) {
        const { nextCheckInMs: _next, error, serviceFailed: _failed, ...counts } = last;
        printJson({ rounds, ...counts, ...(error !== null ? { error } : {}), ...(stoppedBy ? { stopped: stoppedBy } : {}), ...(status ? { status } : {}) });
      } else if (status) out(statusLine(status));
      return code;
    });
  } finally {
    if (deadlineTimer) clearTimeout(deadlineTimer);
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
  }
}

type PollRound = CallOutput<'campaigns:checkNow'>;

/**
 * How a poll ends, by its last round: Ctrl-C or SIGTERM 130; a round the service left unfinished
 * (its first request or a later one failed: a 5xx, a timeout, a refusal) 3, as when it cannot be
 * reached at all; --timeout ends it as it always has (0), also when it cuts a round short.
 */
export function pollExitCode(last: PollRound, stoppedBy: 'SIGINT' | 'SIGTERM' | 'timeout' | null, cutShort: boolean): number {
  if (stoppedBy === 'SIGINT' || stoppedBy === 'SIGTERM') return EXIT.interrupted;
  if (last.error !== null && !cutShort && (last.requests <= 1 || last.serviceFailed === true)) return EXIT.unreachable;
  return EXIT.ok;
}

/** What a poll that ends with exit 3 says on stderr, after the round's line that named the failure: the round did not finish, and what became of what it read. */
export function unfinishedRound(last: PollRound): string {
  const read = last.requests > 1 ? ' The orders it read before that are recorded; the others wait for the next round.' : '';
  return `poll: the round did not finish: the service failed (said above).${read} Run poll again when the service answers.`;
}

/** The environment and address of the service a poll asks, from what the folder records (nothing is asked of the service). */
async function campaignService(cli: Cli, id: string): Promise<{ environment: string; url: string | null }> {
  const summary = await cli.call('campaigns:get', { campaignId: id });
  return { environment: summary.environment, url: summary.serviceUrl };
}

async function environmentService(cli: Cli, environment: string, override: string | undefined): Promise<{ environment: string; url: string | null }> {
  if (override) return { environment, url: override };
  const { environments } = await cli.call('environments:list', {});
  return { environment, url: environments.find((e) => e.name === environment)?.baseUrl ?? null };
}

function isLoopback(url: string): boolean {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** One poll round's line. */
export function pollLine(round: CallOutput<'campaigns:checkNow'>): string {
  return (
    // Each round asks about the orders still undelivered when it starts (the last round's waiting ones),
    // so the line says how many it asked about and splits them: delivered + cancelled + still waiting,
    // in the words of the window's Check now (shared/domain/poll-words.ts).
    `poll: asked about ${plural(round.tracked, 'undelivered order')}: ${settledText(round)}, ${round.waiting} still waiting` +
    (round.expired ? ` (${round.expired} past their acceptance expiry)` : '') +
    `, ${plural(round.requests, 'request')}` +
    (round.error ? `; stopped early: ${round.error}` : '')
  );
}

function report(round: CallOutput<'campaigns:checkNow'>, json: boolean) {
  const line = pollLine(round);
  if (json) say(line);
  else out(line);
}

/** Waits `ms`, or less when the signal aborts; either way its listener is removed (a long --until-settled adds none up). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((done) => {
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      done();
    };
    const timer = setTimeout(finish, ms);
    signal.addEventListener('abort', finish, { once: true });
  });
}

const REPORT_HELP = `Usage: giftbatch report CAMPAIGN_ID --out FILE.csv [--json]
Writes the delivery report (UTF-8 with BOM, one row per recipient, totals per currency).`;

export async function reportCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, { out: { type: 'string' } }, REPORT_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const id = parsed.positionals[0];
  if (!id) throw new UsageError(`Name the campaign.\n\n${REPORT_HELP}`);
  if (!parsed.values.out) throw new UsageError(`--out FILE.csv is required.\n\n${REPORT_HELP}`);
  const file = resolve(parsed.values.out);
  checkOutFile(file);
  const saveReport = async (_name: string, csv: string) => {
    writeFileAtomically(file, csv);
    return file;
  };
  return withService(common, { saveReport }, async (cli) => {
    const { rows } = await cli.call('campaigns:report', { campaignId: id });
    if (common.json) printJson({ campaign_id: id, file, rows });
    else out(`Wrote ${rows} rows to ${file}`);
    return EXIT.ok;
  });
}
