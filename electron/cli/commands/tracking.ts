// giftbatch status / poll / report: what happened to a campaign, asking the service where needed.
import { resolve } from 'node:path';
import { campaignStatus, type CampaignStatus } from '../status.ts';
import { EXIT, UsageError } from '../exit-codes.ts';
import { commonOf, out, parseCommand, positiveNumber, printJson, say, withEngine } from '../options.ts';

const STATUS_HELP = `Usage: giftbatch status [CAMPAIGN_ID] [--json]
One campaign's counts and charged totals; without an id, every campaign.`;

export function statusLine(s: CampaignStatus): string {
  const c = s.counts;
  const charged = s.charged.map((m) => `${m.currency} ${m.amount}`).join(', ') || 'nothing';
  const cancelled = s.charged_cancelled.map((m) => `${m.currency} ${m.amount}`).join(', ');
  const pause = s.send_state === 'paused' ? ` — paused (${s.paused_reason}${s.paused_detail ? `: ${s.paused_detail}` : ''})` : '';
  return (
    `${s.id}  ${s.name} [${s.environment}, product ${s.product_id}] ${s.send_state}${pause}\n` +
    `  ready ${c.ready}, sending ${c.sending}, ordered ${c.ordered}, delivered ${c.delivered}, failed ${c.failed}, ` +
    `cancelled ${c.cancelled}, skipped ${c.skipped}, invalid ${c.invalid}; charged ${charged}` +
    (cancelled ? ` (of which ${cancelled} for orders cancelled or never paid)` : '') +
    (s.acceptance_expired ? `\n  ${s.acceptance_expired} recipient link(s) expired without acceptance` : '') +
    (s.flagged ? `\n  ${s.flagged} row(s) flagged: the service's answer disagreed with what they asked, or could not be read (the report's discrepancy column names each)` : '')
  );
}

export async function statusCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, {}, STATUS_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const id = parsed.positionals[0];
  return withEngine(common, async (engine) => {
    if (id) {
      const status = campaignStatus(engine, id);
      if (common.json) printJson(status);
      else out(statusLine(status));
      return EXIT.ok;
    }
    const all = engine.campaigns().map((c) => campaignStatus(engine, c.id));
    if (common.json) printJson(all);
    else if (all.length === 0) out(`No campaigns yet in ${engine.dataDir}.`);
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
  return withEngine(common, async (engine) => {
    const campaign = id ? engine.campaign(id) : null;
    const connection = campaign
      ? await engine.connectionFor(campaign)
      : await engine.connections.get(common.env, { ...(common.baseUrl ? { baseUrl: common.baseUrl } : {}) });
    // A real service asks for 30–60 s between rounds (the service's polling guidance,
    // docs/service-api.md): never closer than 10 s there. The simulator, and any service on this
    // machine, takes any pace (the tests use that).
    const local = connection.environment === 'simulator' || ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(connection.url).hostname);
    const floorS = local ? 0.1 : MIN_SERVICE_INTERVAL_S;
    if (intervalS !== undefined && intervalS < floorS) {
      throw new UsageError(`--interval ${intervalS}: the ${connection.environment} service is polled at most every ${floorS} s (the service asks for 30–60 s between rounds).`);
    }
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const deadline = timeoutS ? engine.clock.now() + timeoutS * 1000 : Infinity;
    let rounds = 0;
    let last = await engine.poll(connection, id, controller.signal);
    rounds += 1;
    report(last, common.json);
    while (parsed.values['until-settled'] && last.waiting > 0 && !controller.signal.aborted) {
      const wait = intervalS !== undefined ? intervalS * 1000 : engine.nextPollDelay(connection, id);
      if (engine.clock.now() + wait > deadline) break;
      await sleep(wait, controller.signal);
      if (controller.signal.aborted) break;
      last = await engine.poll(connection, id, controller.signal);
      rounds += 1;
      report(last, common.json);
    }
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    if (common.json) printJson({ rounds, ...last, ...(id ? { status: campaignStatus(engine, id) } : {}) });
    else if (id) out(statusLine(campaignStatus(engine, id)));
    if (controller.signal.aborted) return EXIT.interrupted;
    if (last.error && last.requests <= 1) return EXIT.unreachable;
    return EXIT.ok;
  });
}

function report(round: { tracked: number; requests: number; settled: number; waiting: number; expired: number; error?: string }, json: boolean) {
  const line =
    `poll: ${round.tracked} tracked, ${round.settled} settled, ${round.waiting} waiting` +
    (round.expired ? ` (${round.expired} past their acceptance expiry)` : '') +
    `, ${round.requests} requests` +
    (round.error ? `; stopped early: ${round.error}` : '');
  if (json) say(line);
  else out(line);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      done();
    }, { once: true });
  });
}

const REPORT_HELP = `Usage: giftbatch report CAMPAIGN_ID --out FILE.csv
Writes the delivery report (UTF-8 with BOM, one row per recipient, totals per currency).`;

export async function reportCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, { out: { type: 'string' } }, REPORT_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const id = parsed.positionals[0];
  if (!id) throw new UsageError(`Name the campaign.\n\n${REPORT_HELP}`);
  if (!parsed.values.out) throw new UsageError(`--out FILE.csv is required.\n\n${REPORT_HELP}`);
  const file = resolve(parsed.values.out);
  return withEngine(common, async (engine) => {
    const { rows } = engine.writeReport(id, file);
    if (common.json) printJson({ campaign_id: id, file, rows });
    else out(`Wrote ${rows} rows to ${file}`);
    return EXIT.ok;
  });
}
