// giftbatch send / resume / retry / revalidate: import, pre-flight, an explicit confirmation
// (orders are final), send. Every step is a call of the contract, as the app makes it; a send runs
// in the app service's background and this command waits for it, showing its progress.
import { basename } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { CallInput, CallOutput, CampaignSummary, EventPayload, RowDto } from '../../../shared/contract.ts';
import { stockLines } from '../../../shared/domain/availability.ts';
import type { RowState } from '../../../shared/domain/rows.ts';
import { plural } from '../../../shared/domain/plural.ts';
import { SKIP_POLICY_TEXT, type SkipPolicy } from '../../../shared/domain/skips.ts';
import { AppError } from '../../core/app/errors.ts';
import { repeatRecipientsProblem, ServiceError } from '../../core/engine.ts';
import { campaignStatus, failedRowsHint, inCliWords, issueInCliWords, needsFixingHint } from '../status.ts';
import { EXIT, UsageError } from '../exit-codes.ts';
import { commonOf, out, parseCommand, positiveNumber, printJson, say, withService, type Cli, type Common } from '../options.ts';
import { progressView, saveProgressView } from '../progress.ts';
import { importInput, noteCurrency, readCsvFile, withAmountFlag } from './catalog.ts';
import { statusLine } from './tracking.ts';

const SEND_HELP = `Usage: giftbatch send FILE.csv|.xlsx|.ods --product ID [--sheet NAME] [--amount N] [--sender NAME] [--message TEXT]
                      [--name NAME] [--country CC] [--currency CCC] [--rate R] [--gift-per-row] [--send-repeats] [--yes] [--json]
Imports the file as a new campaign, checks the product and every row, asks you to confirm (orders
are final; --yes confirms), then sends one order per valid row. Ctrl-C pauses cleanly; continue
with \`giftbatch resume CAMPAIGN_ID\`. Ctrl-C while the draft is being saved stops it: nothing is
saved, nothing sent (exit 130).
A row whose address repeats an earlier line is skipped (one gift per person) unless --gift-per-row;
a recipient who already has a gift from this environment is skipped unless --send-repeats. Skipped
rows are listed; \`giftbatch report\` says why for each.`;

const RESUME_HELP = `Usage: giftbatch resume CAMPAIGN_ID [--rate R] [--same-account] [--send-repeats] [--resend-unconfirmed] [--yes] [--json]
Looks up every interrupted order by its key first, then sends what is left (after confirmation).
A campaign is resumed under the API key it was sent with; --same-account confirms that another
key is the same account (under another account its orders are not found, and could be paid again).
--send-repeats confirms a second gift to recipients who already have one from this environment.
--resend-unconfirmed: the campaign paused because rows left mid-send were not found under their keys
but the service's order list could not be shown to reach back to them (status says which); you looked
each reference up in the service's own records and found no order: send them again, each under its key.`;

const REVALIDATE_HELP = `Usage: giftbatch revalidate CAMPAIGN_ID [--json]
Checks the campaign's unsent rows (ready, invalid) again against its product as the catalog has it
now, when the pre-flight says the product changed. Every row keeps its key, so a row already
ordered is never ordered again (importing the file again would give every row a new key).`;

export async function revalidateCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, {}, REVALIDATE_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const id = parsed.positionals[0];
  if (!id) throw new UsageError(`Name the campaign whose rows to check again.\n\n${REVALIDATE_HELP}`);
  return withService(common, {}, async (cli) => {
    const { checked, ready, invalid } = await cli.call('campaigns:revalidate', { campaignId: id });
    if (common.json) printJson({ campaign_id: id, checked, ready, invalid });
    else out(`${plural(checked, 'unsent row')} checked again against the product as it is now: ${ready} ready to send, ${invalid} need fixing.${ready > 0 ? ` Send ${ready === 1 ? 'it' : 'them'} with: giftbatch resume ${id}` : ''}`);
    return invalid > 0 ? EXIT.rowsFailed : EXIT.ok;
  });
}

const RECORD_ORDER_HELP = `Usage: giftbatch record-order CAMPAIGN_ID --line N --order ORDER_ID [--json]
For a row left mid-send that a resume could not confirm (the campaign paused 'unconfirmed': the
service's order list shows no order under its reference, but is not seen to reach back to it): you
found its order in the service's own records. The order is read by its id, must carry the row's
reference, and is recorded as the row's order, checked against what the row asked.`;

export async function recordOrderCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, { line: { type: 'string' }, order: { type: 'string' } }, RECORD_ORDER_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const id = parsed.positionals[0];
  if (!id) throw new UsageError(`Name the campaign.\n\n${RECORD_ORDER_HELP}`);
  const line = positiveNumber(parsed.values.line, '--line');
  const orderId = positiveNumber(parsed.values.order, '--order');
  if (line === undefined || orderId === undefined || !Number.isInteger(line) || !Number.isInteger(orderId)) {
    throw new UsageError(`Give the row's line (--line N) and the order's id (--order ORDER_ID), both whole numbers.\n\n${RECORD_ORDER_HELP}`);
  }
  return withService(common, {}, async (cli) => {
    let row: RowDto | undefined;
    for await (const r of rowsIn(cli, id, 'sending', Number.POSITIVE_INFINITY)) {
      if (r.line !== line) continue;
      row = r;
      break;
    }
    if (!row) throw new UsageError(`Campaign ${id} has no row on line ${line} left mid-send.`);
    const recorded = await cli.call('rows:recordOrder', { rowId: row.id, orderId });
    const charged = recorded.charged ? `, charged ${recorded.charged.currency} ${recorded.charged.amount}` : '';
    const flagged = recorded.findings.length > 0 ? ` Flagged: ${recorded.findings.map((f) => f.message).join('; ')}.` : '';
    // With --json, the campaign's status below is the one document printed.
    if (!common.json) out(`Line ${line}: order ${orderId} recorded${charged}.${flagged}`);
    return finish(cli, common, id, recorded.findings.length > 0 ? EXIT.rowsFailed : null);
  });
}

export async function sendCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(
    argv,
    {
      product: { type: 'string' },
      amount: { type: 'string' },
      sender: { type: 'string' },
      message: { type: 'string' },
      name: { type: 'string' },
      country: { type: 'string' },
      currency: { type: 'string' },
      sheet: { type: 'string' },
      rate: { type: 'string' },
      yes: { type: 'boolean' },
      'send-repeats': { type: 'boolean' },
      'gift-per-row': { type: 'boolean' },
    },
    SEND_HELP,
  );
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const file = parsed.positionals[0];
  const bytes = readCsvFile(file, SEND_HELP);
  const rate = positiveNumber(parsed.values.rate, '--rate');
  const input = importInput(common, { path: file ?? '', bytes }, parsed.values, SEND_HELP);
  return withService(common, { rate }, async (cli) => {
    // A large file takes seconds to save: how far it is goes to stderr, as the send's progress does.
    const saving = saveProgressView();
    const progressId = `giftbatch send ${process.pid}`;
    const offSaving = cli.on('campaigns:createProgress', (progress) => {
      if (progress.progressId === progressId) saving.update(progress);
    });
    // Ctrl-C while it saves stops the create (campaigns:stopCreate): what it stored is removed before
    // it answers. A second one quits at once; the parts stored are removed when the folder is next opened.
    let interrupted = false;
    const onSignal = () => {
      if (interrupted) {
        say('Quit at once. Nothing was sent; the part of the draft already stored is removed when this data folder is next opened.');
        process.exit(EXIT.interrupted);
      }
      interrupted = true;
      // No more redraws of the figure under the words below.
      offSaving();
      saving.done();
      say('\nStopping: nothing of this draft will be saved (Ctrl-C again to quit now)…');
      void cli.call('campaigns:stopCreate', { progressId }).catch(() => undefined);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const saved = withAmountFlag(parsed.values.amount, () =>
      cli.call('campaigns:create', {
        ...input,
        name: parsed.values.name ?? `${basename(file ?? 'recipients.csv')} ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`,
        senderName: parsed.values.sender ?? 'Giftbatch',
        message: parsed.values.message ?? null,
        repeats: { inCampaign: parsed.values['gift-per-row'] ? 'send' : 'skip', earlier: parsed.values['send-repeats'] ? 'send' : 'skip' },
        progressId,
      }),
    ).finally(() => {
      offSaving();
      saving.done();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    });
    let created: CallOutput<'campaigns:create'>;
    try {
      created = await saved;
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'stopped')) throw error;
      say(`${error.message} Nothing was sent.`);
      return EXIT.interrupted;
    }
    if (interrupted) {
      // Too late to stop: the draft was saved. Nothing is sent after a Ctrl-C.
      say(`Too late to stop saving: the draft is campaign ${created.id}, with all its rows. Nothing was sent; send it with: giftbatch resume ${created.id}`);
      return EXIT.interrupted;
    }
    noteCurrency(created.product);
    const id = created.id;
    // The review's words: ready to send, need fixing, skipped.
    say(`Campaign ${id}: ${plural(created.counts.ready, 'row')} ready to send, ${created.counts.invalid} need fixing, ${created.counts.skipped} skipped.`);
    for await (const row of rowsIn(cli, id, 'invalid', created.counts.invalid)) for (const e of row.errors) say(`  ${issueInCliWords(e.message)}`);
    for await (const row of rowsIn(cli, id, 'skipped', created.counts.skipped)) {
      if (row.skippedBy !== null) say(`  Line ${row.line} (${row.email ?? ''}) skipped: ${SKIP_TEXT[row.skippedBy]}.`);
    }
    return confirmAndSend(cli, common, id, { yes: parsed.values.yes ?? false, allowRepeats: parsed.values['send-repeats'] ?? false });
  });
}

/** Why the import skipped a row, naming the flag that sends it (the shared words name the window's choices). */
const SKIP_TEXT: Readonly<Record<SkipPolicy, string>> = {
  'repeat-in-campaign': 'its address repeats an earlier line of this campaign (one gift per person unless --gift-per-row)',
  'earlier-campaign': `${SKIP_POLICY_TEXT['earlier-campaign']} (sent only with --send-repeats)`,
};

/** The campaign's rows in a state, a page at a time. */
async function* rowsIn(cli: Cli, campaignId: string, state: RowState, count: number) {
  const limit = 5_000;
  for (let offset = 0; offset < count; offset += limit) {
    const page = await cli.call('campaigns:rows', { campaignId, states: [state], offset, limit });
    yield* page.rows;
    if (page.rows.length < limit) return;
  }
}

const RETRY_HELP = `Usage: giftbatch retry CAMPAIGN_ID [--failed] [--rate R] [--send-repeats] [--yes] [--json]
Puts every failed row back to send (--failed, the default: the rows the service refused), then sends
them as resume does, after the pre-flight and a confirmation. A retried row cannot be paid twice: it
keeps its key, and a refusal means no order exists under it (after an unclear attempt, lookups by
key confirmed that); were there one, the service would return it instead of charging again.`;

export async function retryCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, { failed: { type: 'boolean' }, yes: { type: 'boolean' }, rate: { type: 'string' }, 'send-repeats': { type: 'boolean' } }, RETRY_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const id = parsed.positionals[0];
  if (!id) throw new UsageError(`Name the campaign whose failed rows to retry.\n\n${RETRY_HELP}`);
  const rate = positiveNumber(parsed.values.rate, '--rate');
  return withService(common, { rate }, async (cli) => {
    const { requeued } = await cli.call('campaigns:retryFailed', { campaignId: id });
    say(requeued === 0 ? 'No failed row to retry.' : `${plural(requeued, 'failed row')} put back to send, ${requeued === 1 ? 'under its' : 'each under its'} own key.`);
    return confirmAndSend(cli, common, id, { yes: parsed.values.yes ?? false, allowRepeats: parsed.values['send-repeats'] ?? false });
  });
}

export async function resumeCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, { yes: { type: 'boolean' }, rate: { type: 'string' }, 'same-account': { type: 'boolean' }, 'send-repeats': { type: 'boolean' }, 'resend-unconfirmed': { type: 'boolean' } }, RESUME_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const id = parsed.positionals[0];
  if (!id) throw new UsageError(`Name the campaign to resume.\n\n${RESUME_HELP}`);
  const rate = positiveNumber(parsed.values.rate, '--rate');
  const choices = {
    yes: parsed.values.yes ?? false,
    sameAccount: parsed.values['same-account'] ?? false,
    allowRepeats: parsed.values['send-repeats'] ?? false,
    resendUnconfirmed: parsed.values['resend-unconfirmed'] ?? false,
  };
  return withService(common, { rate }, async (cli) => confirmAndSend(cli, common, id, choices));
}

interface SendChoices {
  yes: boolean;
  sameAccount?: boolean;
  allowRepeats?: boolean;
  /** The person found no order at the service under the keys of the rows the campaign paused on as unconfirmed. */
  resendUnconfirmed?: boolean;
}

async function confirmAndSend(cli: Cli, common: Common, id: string, choices: SendChoices): Promise<number> {
  const sameAccount = choices.sameAccount ?? false;
  const allowRepeats = choices.allowRepeats ?? false;
  const preflight = await cli.call('campaigns:preflight', { campaignId: id, ...(sameAccount ? {} : { stopIfAccountChanged: true as const }) });
  // Another key than the one the campaign was sent under: refused before anything, unless confirmed.
  if (preflight.accountChanged !== null && !sameAccount) throw new ServiceError(preflight.accountChanged, 'account');
  printPreflight(preflight);
  const held = choices.resendUnconfirmed === true ? 0 : await heldRows(cli, id);
  if (held > 0) {
    say(
      `Of these, ${held === 1 ? '1 row is' : `${held} rows are`} held until you look ${held === 1 ? 'it' : 'them'} up at the service: only looked up again here, not sent. ` +
        `Found no order there? Add --resend-unconfirmed. Found one? giftbatch record-order ${id} --line N --order ORDER_ID.`,
    );
  }
  const repeats = preflight.repeatRecipients.count > 0 && !allowRepeats ? [repeatRecipientsProblem(preflight.repeatRecipients)] : [];
  for (const problem of repeats) say(`Pre-flight: ${problem}`);
  const confirmed = {
    ...(sameAccount ? { sameAccount: true as const } : {}),
    ...(allowRepeats ? { allowRepeats: true as const } : {}),
    ...(choices.resendUnconfirmed === true ? { resendUnconfirmed: true as const } : {}),
  };
  if (preflight.problems.length + repeats.length > 0) {
    // Nothing is sent, but rows that were mid-send are still looked up by key and recorded.
    if (preflight.rowsToSend > 0) await runAndWait(cli, id, { lookUpOnly: true, ...confirmed });
    say(`Nothing was sent. Campaign ${id} stays as it is; fix the above and run: giftbatch resume ${id}`);
    return finish(cli, common, id, EXIT.rowsFailed, true);
  }
  if (preflight.rowsToSend === 0) {
    say('Nothing left to send.');
    return finish(cli, common, id, null);
  }
  const total = preflight.totals.map((m) => `${m.currency} ${m.amount}`).join(' + ');
  const { people, rows } = preflight.repeatsInCampaign;
  if (people > 0) say(`${people} ${people === 1 ? 'person gets' : 'people get'} more than one gift from this campaign (${plural(rows, 'gift')} beyond the first), as chosen.`);
  if (choices.resendUnconfirmed === true) say('Rows the campaign paused on as unconfirmed are sent again, each under its own key, as you found no order for them at the service.');
  if (!choices.yes && !(await confirm(`Send ${preflight.rowsToSend} gift orders totalling ${total}? Orders are final and cannot be cancelled. [y/N] `))) {
    say(`Not sent. Orders are final, so sending needs a confirmation: run \`giftbatch resume ${id} --yes\` when ready.`);
    return finish(cli, common, id, EXIT.usage, true);
  }
  // The service runs the pre-flight again right before sending: what changed while the question was
  // on screen (a price, the totals just confirmed) stops it, with nothing sent.
  const ended = await runAndWait(cli, id, { totals: preflight.totals, ...confirmed });
  return finish(cli, common, id, ended.held ? EXIT.rowsFailed : null, ended.resumeNamed, ended.said);
}

interface RunEnd {
  /** The pre-flight held the run (nothing sent); its words were said. */
  held: boolean;
  /** The words said at the end already name `giftbatch resume ID` (a pause: "Run `giftbatch resume ID` to send the rest"). */
  resumeNamed: boolean;
  /** What the run's end said (the pause's paragraph, the pre-flight's refusal), or null. */
  said: string | null;
}

/**
 * `campaigns:send`, then waits for the run's `campaign:finished`, drawing its progress. Ctrl-C asks
 * the run to pause (the POSTs in flight are answered and recorded); a second one quits at once, and
 * the rows in flight stay `sending` for the next resume to look up by key.
 */
async function runAndWait(cli: Cli, campaignId: string, send: Omit<CallInput<'campaigns:send'>, 'campaignId' | 'confirmed'>): Promise<RunEnd> {
  // A run that only looks up the rows that were mid-send (the pre-flight held it) sends nothing: no
  // "progress: 0/3 sent" above "Nothing was sent"; what it found is said in its own line below.
  const view = send.lookUpOnly ? { update: () => undefined, done: () => undefined } : progressView();
  let finish!: (payload: EventPayload<'campaign:finished'>) => void;
  const finished = new Promise<EventPayload<'campaign:finished'>>((resolve) => (finish = resolve));
  const offProgress = cli.on('campaign:progress', ({ campaign }) => {
    if (campaign.id === campaignId) view.update(campaign);
  });
  const offFinished = cli.on('campaign:finished', (payload) => {
    if (payload.campaign.id === campaignId) finish(payload);
  });
  let interrupts = 0;
  const onSignal = () => {
    interrupts += 1;
    if (interrupts === 1) {
      say(
        '\nPausing: no new order is sent; waiting for the requests in flight to be answered and recorded. ' +
          'Press Ctrl-C again to quit now: rows being sent are then looked up by their key when you resume, never ordered twice.',
      );
      void cli.call('campaigns:pause', { campaignId }).catch(() => undefined);
    } else {
      // Quit between two of the engine's synchronous SQLite transactions (a signal is handled on the
      // event loop, never inside one): every write is committed or was never made. Rows in flight stay
      // `sending` on disk with their key, and the next resume looks each one up before any POST.
      view.done();
      say(`Quit at once. Rows that were being sent stay marked as such: \`giftbatch resume ${campaignId}\` looks each one up by its key first, so none is ordered twice.`);
      process.exit(EXIT.interrupted);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    let held: string | null = null;
    try {
      await cli.call('campaigns:send', { campaignId, confirmed: true, ...send });
    } catch (error) {
      // The pre-flight failed at the last moment: the run only looks rows up; its words are the answer.
      if (!(error instanceof AppError && (error.code === 'preflight' || error.code === 'repeat-recipients'))) throw error;
      held = error.message;
      say(held);
    }
    // A Ctrl-C while the service still checked (the account, the pre-flight) found no run to pause,
    // and the run began after it: pause it now, as the line said ("no new order is sent").
    if (interrupts > 0) await cli.call('campaigns:pause', { campaignId }).catch(() => undefined);
    const end = await finished;
    view.update(end.campaign, true);
    view.done();
    if (end.lookedUp && end.lookedUp.checked > 0) say(`Looked up ${plural(end.lookedUp.checked, 'row')} that ${end.lookedUp.checked === 1 ? 'was' : 'were'} being sent: ${end.lookedUp.ordered} found ordered.`);
    const words = held === null && !send.lookUpOnly ? inCliWords(end.message, campaignId) : null;
    if (words !== null) say(words);
    return {
      held: held !== null || end.campaign.pausedReason === 'preflight' || (end.campaign.sendState === 'sending' && !end.campaign.running),
      resumeNamed: words?.includes(`giftbatch resume ${campaignId}`) ?? false,
      said: words ?? held,
    };
  } finally {
    view.done();
    offProgress();
    offFinished();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The exit code for how the campaign stands after a run (see exit-codes.ts). */
function exitFor(s: CampaignSummary): number {
  if (s.sendState === 'paused') {
    if (s.pausedReason === 'user') return EXIT.interrupted;
    if (s.pausedReason === 'circuit-breaker' || s.pausedReason === 'auth') return EXIT.unreachable;
    return EXIT.rowsFailed;
  }
  // Still sending, by another process: nothing was sent from here.
  if (s.sendState === 'sending') return EXIT.rowsFailed;
  return s.counts.failed > 0 || s.counts.invalid > 0 ? EXIT.rowsFailed : EXIT.ok;
}

/**
 * Prints the campaign's status; `code` null: the exit code follows from it. A campaign left to resume
 * gets one line saying so, unless what was said before (`resumeNamed`) already named the command.
 * The pause's paragraph, when the run's end just said it (`said`), is not said again in the status
 * line: that names the pause's reason only ("paused (circuit-breaker)").
 */
async function finish(cli: Cli, common: Common, id: string, code: number | null, resumeNamed = false, said: string | null = null): Promise<number> {
  const summary = await cli.call('campaigns:get', { campaignId: id });
  const status = campaignStatus(summary);
  if (common.json) printJson({ campaign_id: id, counts: status.counts, charged: status.charged, send_state: status.send_state, paused_reason: status.paused_reason, flagged: status.flagged, uncharged_orders: status.uncharged_orders });
  else {
    const detailSaid = status.paused_detail !== null && said !== null && said.includes(status.paused_detail);
    out(statusLine(detailSaid ? { ...status, paused_detail: null } : status));
    out(`Campaign id: ${id}`);
  }
  if (!resumeNamed && (status.send_state === 'paused' || status.counts.sending > 0)) say(`Continue with: giftbatch resume ${id}`);
  const failed = failedRowsHint(status, id);
  if (failed !== null) say(failed);
  const fixing = needsFixingHint(status, id);
  if (fixing !== null) say(fixing);
  return code ?? exitFor(summary);
}

const orders = (n: number): string => plural(n, 'order');

/** The pre-flight in the CLI's words: its problems, the stock, and what is to be sent ('1 order', '3 orders'). */
export function preflightLines(p: CallOutput<'campaigns:preflight'>): string[] {
  const lines = p.problems.map((problem) => `Pre-flight: ${problem}`);
  lines.push(...stockLines(p));
  if (p.rowsToSend > 0) lines.push(`To send: ${orders(p.rowsToSend)}, ${p.totals.map((m) => `${m.currency} ${m.amount}`).join(' + ')} (face value, product currency).`);
  // A file of several gifts: each product's orders and face value.
  if (p.byProduct.length > 1) {
    for (const g of p.byProduct) lines.push(`  product ${g.productId}${g.name ? ` (${g.name})` : ''}: ${orders(g.rows)}, ${g.totals.map((m) => `${m.currency} ${m.amount}`).join(' + ')}`);
  }
  return lines;
}

/** The campaign's rows held for a person (left mid-send, their empty lookup proving nothing): the engine's count, every one. */
async function heldRows(cli: Cli, campaignId: string): Promise<number> {
  return (await cli.call('campaigns:get', { campaignId })).heldRows;
}

function printPreflight(p: CallOutput<'campaigns:preflight'>) {
  for (const line of preflightLines(p)) say(line);
}

async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
