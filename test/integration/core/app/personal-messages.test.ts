// Personal messages through the app's calls, the import worker, a real SQLite file and the real
// simulator: a templated default message and per-row templates are checked at import (an unknown
// field is a row error with its line), shown per row as they will be sent, filled in again when a
// row is edited, and sent: the message the simulator recorded for each order is the text the review
// showed, byte for byte.
import { describe, expect, it } from 'vitest';
import { SIMULATOR_LOCAL_KEY } from '../../../../electron/core/connections.ts';
import { startSimulator, tempDir } from '../../../support/index.ts';
import { csvBase64, startService, waitFor, usdRangeProduct } from '../../../support/app-harness.ts';

const FILE = csvBase64([
  'First name,Last name,Email,Amount,Team,Message',
  'Ann,Lee,ann@example.com,10,Speakers,',
  'Mary Ann,Smith,mary@example.com,20,Crew,"Dear {name}: {{literally}} yours, {Team}"',
  'Bo,Kim,bo@example.com,15,Crew,Hi {nickname}',
  'Émile,Zola,emile@example.fr,10,Bénévoles 🎉,',
]);
const DEFAULT = 'Hi {first_name}, thank you, {team}! A gift of {amount}.';

describe('personal messages', () => {
  it('checks templates at import, shows each row as it will be sent, re-renders an edit, and sends exactly that', async () => {
    const sim = await startSimulator({ latencyMs: 1 });
    const h = await startService(tempDir(), { simulatorUrl: sim.url });
    const productId = await usdRangeProduct(h);
    const input = { environment: 'simulator' as const, productId, fileName: 'speakers.csv', bytesBase64: FILE };

    // The preview checks the default message the person typed, and each row's own.
    const preview = await h.ok('campaigns:previewImport', { ...input, message: DEFAULT });
    expect(preview.totals).toMatchObject({ rows: 4, valid: 3, invalid: 1 });
    const bo = preview.rows.find((r) => r.line === 4);
    expect(bo?.errors).toEqual([
      {
        field: 'message',
        message:
          'Line 4: the message uses {nickname}, which is neither a column of the file nor a field; it can use {first_name}, {name}, {amount}, {First name}, {Last name}, {Email}, {Amount}, {Team}, {Message} (write {{ for a brace)',
      },
    ]);
    // A default message naming a column the file lacks makes every row using it an error.
    const wrongDefault = await h.ok('campaigns:previewImport', { ...input, message: 'Hi {Department}' });
    expect(wrongDefault.rows.filter((r) => r.errors.some((e) => e.field === 'message')).map((r) => r.line)).toEqual([2, 4, 5]);

    const created = await h.ok('campaigns:create', { ...input, message: DEFAULT, name: 'Speakers', senderName: 'The team' });
    expect(created.counts).toMatchObject({ ready: 3, invalid: 1 });
    const rowsNow = async () => (await h.ok('campaigns:rows', { campaignId: created.id, offset: 0, limit: 100 })).rows;
    const rows = await rowsNow();
    const line = (n: number) => rows.find((r) => r.line === n) ?? expect.fail(`no line ${n}`);
    expect(rows.map((r) => [r.line, r.message, r.sentMessage])).toEqual([
      [2, null, 'Hi Ann, thank you, Speakers! A gift of USD 10.00.'],
      [3, 'Dear {name}: {{literally}} yours, {Team}', 'Dear Mary Ann Smith: {literally} yours, Crew'],
      [4, 'Hi {nickname}', null],
      [5, null, 'Hi Émile, thank you, Bénévoles 🎉! A gift of USD 10.00.'],
    ]);
    expect(line(4).state).toBe('invalid');

    // An edit fills the message in again: a new amount, and a fixed template.
    const more = await h.ok('rows:edit', { rowId: line(5).id, name: 'Émile Zola', email: 'emile@example.fr', amount: '30', message: null });
    expect(more).toMatchObject({ state: 'ready', sentMessage: 'Hi Émile, thank you, Bénévoles 🎉! A gift of USD 30.00.' });
    const stillWrong = await h.ok('rows:edit', { rowId: line(4).id, name: 'Bo Kim', email: 'bo@example.com', amount: '15', message: 'Hi {nick name}' });
    expect(stillWrong.state).toBe('invalid');
    expect(stillWrong.errors[0]?.message).toMatch(/^Line 4: the message uses \{nick name\}, which is neither/);
    const fixed = await h.ok('rows:edit', { rowId: line(4).id, name: 'Bo Kim', email: 'bo@example.com', amount: '15', message: 'Hi {first_name} of {TEAM}, {amount}' });
    expect(fixed).toMatchObject({ state: 'ready', errors: [], message: 'Hi {first_name} of {TEAM}, {amount}', sentMessage: 'Hi Bo of Crew, USD 15.00' });
    // A message too long once filled in is refused with its length.
    const long = await h.ok('rows:edit', { rowId: line(3).id, name: 'Mary Ann Smith', email: 'mary@example.com', amount: '20', message: `${'x'.repeat(990)} {name}` });
    expect(long.errors).toEqual([{ field: 'message', message: 'Line 3: the message is 1005 characters long with its fields filled in; the limit is 1000' }]);
    await h.ok('rows:edit', { rowId: line(3).id, name: 'Mary Ann Smith', email: 'mary@example.com', amount: '20', message: 'Dear {name}: {{literally}} yours, {Team}' });

    const shown = new Map((await rowsNow()).map((r) => [r.line, r.sentMessage]));
    await h.ok('campaigns:send', { campaignId: created.id, confirmed: true });
    await waitFor('the campaign to finish', () => h.events.find((e) => e.name === 'campaign:finished'));

    const sent = await rowsNow();
    expect(sent.every((r) => r.state === 'ordered' || r.state === 'delivered')).toBe(true);
    for (const row of sent) {
      const res = await fetch(`${sim.url}/v1/orders/${row.orderId}`, { headers: { accept: 'application/json', 'SERVICE-API-KEY': SIMULATOR_LOCAL_KEY } });
      const order = (await res.json()) as { message?: string; external_reference_id?: string };
      expect(order.external_reference_id).toBe(row.externalReferenceId);
      // What the simulator recorded is what the review showed before the send, and what the row shows now.
      expect(order.message).toBe(shown.get(row.line));
      expect(row.sentMessage).toBe(order.message);
    }
    expect(shown.get(4)).toBe('Hi Bo of Crew, USD 15.00');
    expect(shown.get(3)).toBe('Dear Mary Ann Smith: {literally} yours, Crew');
  });
});
