import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFor } from '../../../electron/simulator/index.ts';
import { EXIT } from '../../../electron/cli/exit-codes.ts';
import { json, runCli, startSimulatorProcess, tempDir, writeRecipients, type SimulatorProcess, setSimulatorBalance } from '../../support/cli.ts';

// Issue 11, item 6, through the CLI: repeated identical refusals pause the campaign (exit 1), and
// `giftbatch retry CAMPAIGN_ID --failed` sends the failed rows again, each under its own key, once.
const KEY = 'cli-retry-key';
let sim: SimulatorProcess;
beforeAll(async () => {
  sim = await startSimulatorProcess(['--log', 'problems']);
});
afterAll(async () => {
  await sim?.stop();
});

const setBalance = (balance: string): Promise<void> => setSimulatorBalance(sim.url, KEY, balance);

describe('giftbatch retry', () => {
  it('pauses on the same refusal three times, then retries the failed rows once the cause is fixed', async () => {
    const dir = tempDir();
    const env = { GIFTBATCH_API_KEY: KEY };
    const common = ['--base-url', sim.url, '--data-dir', join(dir, 'data')];
    await setBalance('30.00');
    const csv = writeRecipients(dir, 8);
    const product = String(productIdFor(KEY, 'us-fixed-25'));

    const sent = await runCli(['send', csv, '--product', product, '--yes', '--json', ...common], env);
    expect(sent.code).toBe(1);
    const first = json<{ campaign_id: string; paused_reason: string; counts: Record<string, number> }>(sent.stdout);
    expect(first.paused_reason).toBe('refused');
    expect(first.counts.ordered).toBe(1);
    expect(sent.stderr).toMatch(/refused 3 orders in a row with the same answer/);

    await setBalance('1000.00');
    const retried = await runCli(['retry', first.campaign_id, '--failed', '--yes', '--json', ...common], env);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stderr).toMatch(/(1 failed row put back to send, under its own key|\d+ failed rows put back to send, each under its own key)/);
    expect(json<{ counts: Record<string, number> }>(retried.stdout).counts).toMatchObject({ ordered: 8, failed: 0, ready: 0 });
    const orders = (await sim.audit()).accounts[KEY]?.orders ?? [];
    expect(orders).toHaveLength(8);
    expect(new Set(orders.map((o) => o.externalReferenceId)).size).toBe(8);
  }, 60_000);
});

// `giftbatch record-order`: a row left mid-send whose order the service's list does not show (the
// campaign paused 'unconfirmed', the row held) is given the order the person found by its id. The row
// is put back as a crash would leave it, by plain SQL while no command runs: state 'sending', no order.
describe('giftbatch record-order', () => {
  it("refuses another row's order (naming whose it is) and an unknown line, and records the row's own with its charge", async () => {
    const key = 'cli-record-order-key';
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    const env = { GIFTBATCH_API_KEY: key };
    const common = ['--base-url', sim.url, '--data-dir', dataDir];
    const sent = await runCli(['send', writeRecipients(dir, 3), '--product', String(productIdFor(key, 'us-fixed-25')), '--yes', '--json', ...common], env);
    expect(sent.code, sent.stderr).toBe(0);
    const id = json<{ campaign_id: string }>(sent.stdout).campaign_id;

    const db = new Database(join(dataDir, 'giftbatch.sqlite'));
    const orderOf = (line: number): number => (db.prepare('SELECT order_id AS o FROM recipients WHERE campaign_id = ? AND line = ?').get(id, line) as { o: number }).o;
    const [own, others] = [orderOf(3), orderOf(2)];
    db.prepare(
      `UPDATE recipients SET state = 'sending', held_at = ?, order_id = NULL, order_status = NULL, item_id = NULL, item_status = NULL,
         charged_minor = NULL, charged_currency = NULL, charged_text = NULL, exchange_rate = NULL, rate_from = NULL, rate_to = NULL, fee_rate = NULL,
         acceptance_expiry = NULL, issued_amount = NULL, issued_currency = NULL, discrepancies = NULL, ordered_at = NULL, delivered_at = NULL
       WHERE campaign_id = ? AND line = 3`,
    ).run(Date.now(), id);
    db.prepare(`UPDATE campaigns SET send_state = 'paused', paused_reason = 'unconfirmed', paused_detail = 'Line 3 was left mid-send.' WHERE id = ?`).run(id);
    db.close();

    const wrong = await runCli(['record-order', id, '--line', '3', '--order', String(others), ...common], env);
    expect(wrong.code).toBe(EXIT.usage);
    expect(wrong.stderr).toContain(`Order ${others} carries the reference`);
    expect(wrong.stderr).toContain("(it is line 2's, Recipient 1)");
    expect(wrong.stderr).toContain("it is not this row's order. Nothing was recorded.");

    const noSuchLine = await runCli(['record-order', id, '--line', '9', '--order', String(own), ...common], env);
    expect(noSuchLine.code).toBe(EXIT.usage);
    expect(noSuchLine.stderr).toContain(`Campaign ${id} has no row on line 9 left mid-send.`);

    const recorded = await runCli(['record-order', id, '--line', '3', '--order', String(own), ...common], env);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toContain(`Line 3: order ${own} recorded, charged USD 25.00.`);
    const status = json<{ send_state: string; counts: Record<string, number> }>((await runCli(['status', id, '--json', ...common], env)).stdout);
    expect(status.counts).toMatchObject({ sending: 0, ready: 0 });
    expect((status.counts.ordered ?? 0) + (status.counts.delivered ?? 0)).toBe(3);
    expect(status.send_state).toBe('done');
    // Nothing was ordered again: one order per row at the service.
    expect((await sim.audit()).accounts[key]?.orders).toHaveLength(3);
  }, 30_000);
});
