// Runs the BUILT desktop main process (argv[2], out/main/index.js) under plain Node with the fake
// Electron (node --import ./register.mjs drive-main.mjs MAIN [smoke|start]), the way a window
// would use it: contract calls over the registered IPC handlers, from the window's main frame and
// from a forged one, a draft made with a progressId, then a quit. Prints one line, RESULT {json},
// and leaves the process to end by itself (anything the app left running would keep it alive).
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { setTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';
// The same module instance the built app gets for 'electron' (hooks.mjs resolves it to this file).
import { app, fake } from './electron.mjs';

const [mainFile, mode = 'smoke'] = process.argv.slice(2);
const out = { mode };
const csv = (n) => Buffer.from(['Name,Email', ...Array.from({ length: n }, (_, i) => `Guest ${i},guest${i}@example.com`)].join('\r\n') + '\r\n').toString('base64');

await import(pathToFileURL(mainFile).href);
// A second launch while the engine is still opening (before any window): it must not make a window
// the IPC handlers are not registered for yet.
app.emit('second-instance', {}, [], process.cwd());

const deadline = Date.now() + 30_000;
while (fake.windows.length === 0 && fake.exitCode === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));

out.userData = fake.paths.get('userData') ?? null;
out.lockRequested = fake.lockRequested;
out.errorBoxes = fake.errorBoxes;
out.exitCode = fake.exitCode ?? null;

if (mode === 'smoke' && fake.windows.length > 0) {
  const window = fake.windows[0];
  out.windows = fake.windows.length;
  out.handlersAtWindowCreation = window.handlersAtCreation;
  out.preload = window.options.webPreferences.preload;
  out.loaded = window.loaded;
  out.handlers = [...fake.handlers.keys()];
  const trusted = { senderFrame: window.webContents.mainFrame };
  const forged = { senderFrame: { url: 'https://evil.example/' } };
  const call = (name, input, event = trusted) => fake.handlers.get(name)(event, input);
  out.info = await call('app:info', {});
  out.forged = await call('app:info', {}, forged);
  const sample = await call('app:sampleCsv', {});
  out.sample = sample.ok ? { ok: true, fileName: sample.value.fileName, bytes: Buffer.from(sample.value.bytesBase64, 'base64').length } : sample;
  const products = await call('products:list', { environment: 'simulator', country: 'US' });
  const product = products.ok ? products.value.products.find((p) => p.price.kind === 'range' && p.price.min.currency === 'USD' && p.unorderableReason === null) : undefined;
  out.productFound = product !== undefined;
  if (product) {
    const file = { fileName: 'guests.csv', bytesBase64: csv(1_500), environment: 'simulator', productId: product.id, defaultAmount: '10' };
    const preview = await call('campaigns:previewImport', { ...file, rows: 'none' });
    out.preview = preview.ok ? { ok: true, toSend: preview.value.totals?.toSend ?? null } : preview;
    const created = await call('campaigns:create', { ...file, name: 'Built app', senderName: 'Team', progressId: 'built-1' });
    out.created = created.ok ? { ok: true, ready: created.value.counts.ready } : created;
  }
  out.progressSent = fake.sent.filter((m) => m.channel === 'campaigns:createProgress').map((m) => m.payload);
  // Quit as the menu does: held until the service and the engine closed, then let through.
  app.quit();
}

// 'start': only starting (and quitting, if it started).
if (mode === 'start' && fake.windows.length > 0) app.quit();

out.ended = await Promise.race([fake.done, new Promise((r) => setTimeout(() => r('timeout'), 40_000).unref())]);
out.quits = fake.quits;
out.exitCode = fake.exitCode ?? null;
out.errorBoxes = fake.errorBoxes;
process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
