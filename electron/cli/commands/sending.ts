// giftbatch send / resume: import, pre-flight, an explicit confirmation (orders are final), send.
import { basename } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { stockText } from '../../../shared/domain/availability.ts';
import { formatMoney, type Money } from '../../../shared/domain/money.ts';
import type { SendResult } from '../../core/campaigns/send-queue.ts';
import { campaignStatus } from '../status.ts';
import { preflightProblems, type Engine, type PreflightResult } from '../../core/engine.ts';
import { EXIT, UsageError } from '../exit-codes.ts';
import { commonOf, out, parseCommand, positiveNumber, printJson, say, withEngine, type Common } from '../options.ts';
import { progressView } from '../progress.ts';
import { amountOption, productFor, readCsvFile } from './catalog.ts';
import { statusLine } from './tracking.ts';

const SEND_HELP = `Usage: giftbatch send FILE.csv --product ID [--amount N] [--sender NAME] [--message TEXT]
                      [--name NAME] [--country CC] [--currency CCC] [--rate R] [--send-repeats] [--yes] [--json]
Imports the file as a new campaign, checks the product and every row, asks you to confirm (orders
are final; --yes confirms), then sends one order per valid row. Ctrl-C pauses cleanly; continue
with \`giftbatch resume CAMPAIGN_ID\`.`;

const RESUME_HELP = `Usage: giftbatch resume CAMPAIGN_ID [--rate R] [--same-account] [--send-repeats] [--yes] [--json]
Looks up every interrupted order by its key first, then sends what is left (after confirmation).
A campaign is resumed under the API key it was sent with; --same-account confirms that another
key is the same account (under another account its orders are not found, and could be paid again).
--send-repeats confirms a second gift to recipients who already have one from this environment.`;

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
  return withEngine(common, async (engine) => {
    const counts = await engine.revalidate(id);
    if (common.json) printJson({ campaign_id: id, ...counts });
    else out(`${counts.checked} unsent row(s) checked again against the product as it is now: ${counts.ready} ready, ${counts.invalid} invalid. Send them with: giftbatch resume ${id}`);
    return counts.invalid > 0 ? EXIT.rowsFailed : EXIT.ok;
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
      rate: { type: 'string' },
      yes: { type: 'boolean' },
      'send-repeats': { type: 'boolean' },
    },
    SEND_HELP,
  );
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const file = parsed.positionals[0];
  const bytes = readCsvFile(file, SEND_HELP);
  const rate = positiveNumber(parsed.values.rate, '--rate');
  return withEngine(common, async (engine) => {
    const connection = await engine.connections.get(common.env, {
      ...(common.baseUrl ? { baseUrl: common.baseUrl } : {}),
      ...(rate ? { rate } : {}),
    });
    const product = await productFor(engine, connection, parsed.values, SEND_HELP);
    const created = engine.createCampaign(connection, {
      bytes,
      product,
      name: parsed.values.name ?? `${basename(file ?? 'recipients.csv')} ${new Date(engine.clock.now()).toISOString().slice(0, 16).replace('T', ' ')}`,
      senderName: parsed.values.sender ?? 'Giftbatch',
      message: parsed.values.message ?? null,
      defaultAmount: amountOption(parsed.values.amount, product),
    });
    const id = created.campaign.id;
    say(`Campaign ${id}: ${created.counts.ready} rows ready, ${created.counts.invalid} invalid.`);
    for (const row of created.preview.validation.rows) for (const e of row.errors) say(`  ${e.message}`);
    return confirmAndSend(engine, common, id, { yes: parsed.values.yes ?? false, rate, allowRepeats: parsed.values['send-repeats'] ?? false });
  });
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
  return withEngine(common, async (engine) => {
    const requeued = engine.retryFailed(id);
    say(requeued === 0 ? 'No failed row to retry.' : `${requeued} failed row(s) put back to send, each under its own key.`);
    return confirmAndSend(engine, common, id, { yes: parsed.values.yes ?? false, rate, allowRepeats: parsed.values['send-repeats'] ?? false });
  });
}

export async function resumeCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, { yes: { type: 'boolean' }, rate: { type: 'string' }, 'same-account': { type: 'boolean' }, 'send-repeats': { type: 'boolean' } }, RESUME_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const id = parsed.positionals[0];
  if (!id) throw new UsageError(`Name the campaign to resume.\n\n${RESUME_HELP}`);
  const rate = positiveNumber(parsed.values.rate, '--rate');
  const choices = { yes: parsed.values.yes ?? false, rate, sameAccount: parsed.values['same-account'] ?? false, allowRepeats: parsed.values['send-repeats'] ?? false };
  return withEngine(common, async (engine) => confirmAndSend(engine, common, id, choices));
}

interface SendChoices {
  yes: boolean;
  rate: number | undefined;
  sameAccount?: boolean;
  allowRepeats?: boolean;
}

async function confirmAndSend(engine: Engine, common: Common, id: string, choices: SendChoices): Promise<number> {
  const { yes, rate } = choices;
  const sameAccount = choices.sameAccount ?? false;
  const allowRepeats = choices.allowRepeats ?? false;
  // Another key than the one the campaign was sent under: refused before anything, unless confirmed.
  await engine.checkAccount(id, sameAccount);
  const preflight = await engine.preflight(id);
  printPreflight(preflight);
  const problems = preflightProblems(preflight, undefined, allowRepeats);
  if (problems.length > preflight.problems.length) for (const problem of problems.slice(preflight.problems.length)) say(`Pre-flight: ${problem}`);
  if (problems.length > 0) {
    // Nothing is sent, but rows that were mid-send are still looked up by key and recorded.
    const held = await engine.send(id, { checked: preflight, sameAccount, allowRepeats });
    if (held.reconciliation.checked > 0) say(`Looked up ${held.reconciliation.checked} row(s) that were being sent: ${held.reconciliation.ordered} found ordered.`);
    say(`Nothing was sent. Campaign ${id} stays as it is; fix the above and run: giftbatch resume ${id}`);
    return finish(engine, common, id, EXIT.rowsFailed);
  }
  if (preflight.rowsToSend === 0) {
    say('Nothing left to send.');
    return finish(engine, common, id, exitFor(engine, id, null));
  }
  const total = preflight.totals.map(formatMoney).join(' + ');
  if (!yes && !(await confirm(`Send ${preflight.rowsToSend} gift orders totalling ${total}? Orders are final and cannot be cancelled. [y/N] `))) {
    say(`Not sent. Orders are final, so sending needs a confirmation: run \`giftbatch resume ${id} --yes\` when ready.`);
    return finish(engine, common, id, EXIT.usage);
  }

  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts += 1;
    if (interrupts === 1) {
      say('\nPausing: waiting for the requests in flight to be answered and recorded (Ctrl-C again to quit now)…');
      controller.abort();
    } else {
      // Rows in flight stay `sending` on disk; the next resume looks each one up by its key.
      process.exit(EXIT.interrupted);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const view = progressView();
  let result: SendResult;
  try {
    // The engine runs the pre-flight again right before sending: what changed while the question
    // was on screen (a price, the totals just confirmed) stops it, with nothing sent.
    result = await engine.send(id, { signal: controller.signal, onProgress: (p) => view.update(p), confirmedTotals: preflight.totals, sameAccount, allowRepeats, ...(rate ? { rate } : {}) });
  } finally {
    view.done();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  say(result.message);
  return finish(engine, common, id, exitFor(engine, id, result));
}

function exitFor(engine: Engine, id: string, result: SendResult | null): number {
  if (result) {
    if (result.stoppedBy === 'user') return EXIT.interrupted;
    if (result.stoppedBy === 'circuit-breaker' || result.stoppedBy === 'auth') return EXIT.unreachable;
    if (result.stoppedBy !== 'done') return EXIT.rowsFailed;
  }
  const { counts } = campaignStatus(engine, id);
  return counts.failed > 0 || counts.invalid > 0 ? EXIT.rowsFailed : EXIT.ok;
}

function finish(engine: Engine, common: Common, id: string, code: number): number {
  const status = campaignStatus(engine, id);
  if (common.json) printJson({ campaign_id: id, counts: status.counts, charged: status.charged, send_state: status.send_state, paused_reason: status.paused_reason, flagged: status.flagged });
  else {
    out(statusLine(status));
    out(`Campaign id: ${id}`);
  }
  if (status.send_state === 'paused' || status.counts.sending > 0) say(`Continue with: giftbatch resume ${id}`);
  return code;
}

function printPreflight(p: PreflightResult) {
  for (const problem of p.problems) say(`Pre-flight: ${problem}`);
  if (p.availability) say(`Stock: ${stockText(p.availability)}`);
  if (p.rowsToSend > 0) say(`To send: ${p.rowsToSend} orders, ${p.totals.map((m: Money) => formatMoney(m)).join(' + ')} (face value, product currency).`);
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
