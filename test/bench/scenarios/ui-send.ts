// ui_long_tasks_during_send: long tasks (> 50 ms) on the campaign screen while 10,000 rows send at
// 200/s, in Chromium against the browser shell. Target 0.
//
// A 10,000-row draft (9,989 rows ready: the generator spoils 11 e-mails on purpose) is imported
// through the engine into a temp data folder whose simulator environment points at a simulator in
// its own process (`--latency 150 --rate 200 --item-delay 60000`: orders stay awaiting delivery, so
// the engine also polls them during the send) at 200 requests/s. The shell (electron/cli/web.ts, its
// own process) is started on that folder and the page opened at the campaign's address. The send is
// started as a person does: Review and send, Send, then the confirmation's Send button. From that
// click to the campaign screen showing the campaign done (data-send-state="done", not running), a
// PerformanceObserver ('longtask') counts every task over 50 ms on the page's main thread, while the
// rows table is scrolled one viewport down every second (a person watching it; back to the top at
// the bottom).
//
// Figures: ui_long_tasks_during_send, ui_longest_task_ms_during_send, ui_send_orders_per_s (orders
// the screen shows at the end ÷ ui_send_seconds), ui_send_seconds (click to done, page clock).
//
// A long task is wall time: on a loaded machine the page's thread also waits for a core, and a task
// of 2 ms of work can last 100 ms. So a Chromium trace ('toplevel': every task of every thread, with
// its wall and its thread's CPU time) is recorded over the same span, and the page's main thread's
// tasks are read from it: ui_long_tasks_cpu_during_send counts those with more than 50 ms of CPU
// (the renderer's own doing, whatever the load), ui_longest_task_cpu_ms_during_send is the most
// CPU one task took, ui_renderer_main_cpu_ms_during_send all of it, and each long task the observer
// saw is logged with its CPU time (the trace also holds tasks over 50 ms the observer does not report,
// such as a garbage collection on its own). ui_chromium_cpu_ms_during_send is the CPU of all of Chromium's
// threads over the send (the compositor, raster and GPU process draw every frame the page asks for).
// UI_SEND_PROFILE=<file.cpuprofile> also records a CPU profile of the page over the send (the
// profiler's own cost makes that run's figures worse; for finding causes, not for the figures);
// UI_SEND_TRACE=<file.json> a Chromium trace (devtools.timeline: every task with its duration);
// UI_SEND_RENDERER_DIR=<dir> serves another build of the renderer (an unminified one, to read a profile);
// UI_SEND_SHOT=<file.png> a screenshot of the screen once a quarter of the rows are ordered (the
// capture is a task of its own: not for the figures either).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { settingKeys } from '../../../electron/core/app/environments.ts';
import { createDraftCampaign } from '../draft-campaign.ts';
import { emit, log, scenario, startChild, startSimulatorProcess } from '../harness.ts';

const ROWS = 10_000;
const RATE = 200;
const LATENCY_MS = 150;
const SEND_TIMEOUT_MS = 10 * 60_000;

function createCampaign(dataDir: string, simulatorUrl: string): Promise<string> {
  // The simulator environment as the Environments screen would leave it: the external simulator, 200/s.
  return createDraftCampaign(dataDir, {
    rows: ROWS,
    seed: 31,
    name: 'Bench send ten thousand',
    settings: [
      [settingKeys.baseUrl('simulator'), simulatorUrl.replace(/\/+$/, '')],
      [settingKeys.rate('simulator'), RATE],
    ],
  });
}

// Kept as text: tsx would otherwise wrap the page functions' inner functions in a helper (`__name`)
// that does not exist in the page. Installed before the app's own scripts run.
const LONG_TASK_RECORDER = `(() => {
  window.__benchLongTasks = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__benchLongTasks.push({ start: e.startTime, duration: e.duration });
  });
  observer.observe({ type: 'longtask', buffered: true });
})();`;

/** Proves the observer sees long tasks here: one deliberate 80 ms task must be recorded. */
const PROBE = `(async () => {
  const before = window.__benchLongTasks.length;
  await new Promise((resolve) => setTimeout(() => { const end = performance.now() + 80; while (performance.now() < end); resolve(); }, 0));
  for (let i = 0; i < 5; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
  await new Promise((resolve) => setTimeout(resolve, 100));
  return window.__benchLongTasks.length - before;
})()`;

/**
 * From the click on (page clock, window.__benchSendStart): every second, the rows table (when on
 * screen) one viewport further down, back to the top past the bottom; every 100 ms, whether the
 * campaign screen shows the campaign done, and when it first did (window.__benchDoneAt).
 */
const WATCHER = `(() => {
  window.__benchScrolls = 0;
  const done = '[data-testid="campaign-screen"][data-send-state="done"][data-running="false"]';
  const check = setInterval(() => {
    if (document.querySelector(done)) {
      window.__benchDoneAt = performance.now();
      performance.mark('bench-send-done');
      clearInterval(check);
      clearInterval(scroll);
    }
  }, 100);
  const scroll = setInterval(() => {
    const table = document.querySelector('[data-testid="campaign-screen"] [data-testid="rows-table"]');
    if (!table) return;
    if (table.scrollTop + table.clientHeight >= table.scrollHeight - 1) table.scrollTop = 0;
    else table.scrollTop += table.clientHeight;
    window.__benchScrolls++;
  }, 1000);
})()`;

interface PageFigures {
  tasks: Array<{ start: number; duration: number }>;
  sendStart: number;
  doneAt: number | undefined;
  scrolls: number;
}

async function pageFigures(page: Page): Promise<PageFigures> {
  return (await page.evaluate(
    '({ tasks: window.__benchLongTasks, sendStart: window.__benchSendStart, doneAt: window.__benchDoneAt, scrolls: window.__benchScrolls })',
  )) as PageFigures;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

interface TaskTimes {
  /** Page clock (performance.now()) of the task's start. */
  start: number;
  wallMs: number;
  cpuMs: number;
}

interface TraceFigures {
  /** The page's main-thread tasks over the send. */
  tasks: TaskTimes[];
  /** CPU time over the send of all of Chromium's threads, by process (Renderer, GPU Process, Browser…). */
  cpuByProcess: Map<string, number>;
}

/** The outermost tasks of one thread, in order (a task run inside another, by a nested loop, is part of it). */
function outermost(tasks: TraceEvent[]): TraceEvent[] {
  const out: TraceEvent[] = [];
  let end = -Infinity;
  for (const e of [...tasks].sort((a, b) => a.ts - b.ts)) {
    if (e.ts < end) continue;
    end = e.ts + (e.dur ?? 0);
    out.push(e);
  }
  return out;
}

/**
 * Reads the trace between the page's marks bench-send-start and bench-send-done. The marks name the
 * page's main thread (the renderer that holds the page) and the clock: a mark's event carries both
 * its trace time and its page time.
 */
function readTrace(file: string): TraceFigures {
  const events = (JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: Array<TraceEvent & { args?: { name?: string } }> }).traceEvents;
  const start = events.find((e) => e.name === 'bench-send-start') as (TraceEvent & { args: { data: { startTime: number } } }) | undefined;
  const done = events.find((e) => e.name === 'bench-send-done');
  if (!start || !done) throw new Error('the trace holds no bench-send-start/bench-send-done marks');
  const pageTime = (ts: number): number => start.args.data.startTime + (ts - start.ts) / 1000;
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || e.name !== 'ThreadControllerImpl::RunTask' || e.ts + (e.dur ?? 0) < start.ts || e.ts > done.ts) continue;
    const key = `${e.pid}:${e.tid}`;
    const list = byThread.get(key) ?? [];
    list.push(e);
    byThread.set(key, list);
  }
  const processNames = new Map<number, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'process_name' && e.args?.name) processNames.set(e.pid, e.args.name);
  const cpuByProcess = new Map<string, number>();
  for (const list of byThread.values()) {
    const first = list[0];
    if (!first) continue;
    const name = `${processNames.get(first.pid) ?? 'process'}${first.pid === start.pid ? ' (the page)' : ''}`;
    cpuByProcess.set(name, (cpuByProcess.get(name) ?? 0) + outermost(list).reduce((n, e) => n + (e.tdur ?? 0) / 1000, 0));
  }
  const tasks = outermost(byThread.get(`${start.pid}:${start.tid}`) ?? []).map((e) => ({
    start: pageTime(e.ts),
    wallMs: (e.dur ?? 0) / 1000,
    cpuMs: (e.tdur ?? 0) / 1000,
  }));
  return { tasks, cpuByProcess };
}

async function countText(page: Page, which: string): Promise<number> {
  const text = (await page.getByTestId(`count-${which}`).textContent()) ?? '';
  const n = Number(text.replace(/[^0-9]/g, ''));
  if (!Number.isFinite(n) || text.trim() === '') throw new Error(`count-${which} shows "${text}"`);
  return n;
}

scenario(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'giftbatch-bench-ui-send-'));
  const sim = await startSimulatorProcess(['--latency', String(LATENCY_MS), '--rate', String(RATE), '--item-delay', '60000']);
  let shell: Awaited<ReturnType<typeof startChild>> | null = null;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const campaignId = await createCampaign(dataDir, sim.url);
    // Without --no-build: the shell builds the renderer first when it is missing or stale.
    const rendererDir = process.env.UI_SEND_RENDERER_DIR;
    shell = await startChild(
      ['electron/cli/web.ts', '--port', '0', '--data-dir', dataDir, ...(rendererDir ? ['--renderer-dir', rendererDir] : [])],
      'GIFTBATCH_URL',
      240_000,
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
    const page = await context.newPage();
    await page.addInitScript(LONG_TASK_RECORDER);
    await page.goto(`${shell.url}&/campaigns/${campaignId}`);
    const screen = page.locator('[data-testid="app"][data-state="ready"] [data-testid="campaign-screen"]');
    await screen.locator('[data-testid="row"]').first().waitFor({ timeout: 60_000 });
    const total = await page.getByTestId('rows-total').textContent();
    if (!total?.includes('10,000')) throw new Error(`the campaign screen shows "${total ?? ''}", expected 10,000 rows`);
    if ((await page.evaluate(PROBE)) !== 1) {
      throw new Error('this Chromium reports no long tasks (a deliberate 80 ms task went unseen): the count would mean nothing');
    }

    // As a person: the draft's Review and send, the wizard's Send, the confirmation's Send.
    await page.getByRole('button', { name: 'Review and send' }).click();
    await page.locator('[data-testid="new-campaign"][data-step="review"]').waitFor();
    await page.getByTestId('wiz-send').click();
    const confirm = page.getByTestId('confirm-send');
    await confirm.waitFor();
    // Enabled once the pre-flight check (run again when the dialog opens) has passed.
    const enabledBy = Date.now() + 60_000;
    while (!(await confirm.isEnabled())) {
      if (Date.now() > enabledBy) throw new Error('the confirmation\'s Send button stayed disabled (pre-flight?)');
      await page.waitForTimeout(200);
    }
    const confirmText = (await confirm.textContent()) ?? '';
    // The generated file repeats a few e-mails (skipped or kept as the product allows): nearly every row goes.
    const toSend = Number(/\d+/.exec(confirmText.replace(/,/g, ''))?.[0] ?? 0);
    if (toSend < ROWS * 0.99) throw new Error(`the confirmation offers "${confirmText}", expected about ${ROWS} rows`);
    log(`ui-send: the confirmation offers "${confirmText}"`);
    // Settle: what the wizard did before is not the send's doing.
    await page.waitForTimeout(1_500);

    let cdp: CDPSession | null = null;
    const profilePath = process.env.UI_SEND_PROFILE;
    if (profilePath) {
      cdp = await page.context().newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    // UI_SEND_TRACE: what DevTools' Performance panel shows as well (heavier; kept for reading).
    const tracePath = process.env.UI_SEND_TRACE ?? join(dataDir, 'trace.json');
    const categories = ['toplevel', 'blink.user_timing', ...(process.env.UI_SEND_TRACE ? ['devtools.timeline', 'disabled-by-default-devtools.timeline'] : [])];
    await browser.startTracing(page, { path: tracePath, categories });
    // The calls the page makes from the click on, by name (what each progress event costs it).
    const calls = new Map<string, number>();
    page.on('request', (request) => {
      const name = /\/api\/([^/?#]+)$/.exec(request.url())?.[1];
      if (name) calls.set(name, (calls.get(name) ?? 0) + 1);
    });
    await page.evaluate("window.__benchSendStart = performance.now(); performance.mark('bench-send-start')");
    await confirm.click();
    await page.evaluate(WATCHER);
    await screen.waitFor({ timeout: 60_000 });
    log(`ui-send: the campaign screen is up after the click; sending ${ROWS} rows at ${RATE}/s…`);

    const shotPath = process.env.UI_SEND_SHOT;
    let shot = false;
    const deadline = Date.now() + SEND_TIMEOUT_MS;
    let lastLog = Date.now();
    for (;;) {
      const doneAt: unknown = await page.evaluate('window.__benchDoneAt');
      if (typeof doneAt === 'number') break;
      if (Date.now() > deadline) throw new Error(`the campaign screen did not show the campaign done within ${SEND_TIMEOUT_MS / 1000} s`);
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        const ordered = await countText(page, 'ordered');
        log(`ui-send: … to send ${await countText(page, 'to-send')}, ordered ${ordered}`);
        if (shotPath && !shot && ordered >= ROWS / 4) {
          shot = true;
          await page.screenshot({ path: shotPath });
          log(`ui-send: screenshot mid-send written to ${shotPath}`);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    if (cdp && profilePath) {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
      writeFileSync(profilePath, JSON.stringify(profile));
      log(`ui-send: CPU profile written to ${profilePath}`);
    }
    await browser.stopTracing();
    if (process.env.UI_SEND_TRACE) log(`ui-send: trace written to ${tracePath}`);
    const trace = readTrace(tracePath);
    const traced = trace.tasks;
    const figures = await pageFigures(page);
    log(`ui-send: calls from the page during the send: ${[...calls].map(([name, n]) => `${name} ${n}`).join(', ')}`);
    if (figures.doneAt === undefined) throw new Error('no done time recorded');
    const ordered = (await countText(page, 'ordered')) + (await countText(page, 'delivered'));
    const failed = await countText(page, 'failed');
    const during = figures.tasks.filter((t) => t.start >= figures.sendStart && t.start <= figures.doneAt!);
    const before = figures.tasks.filter((t) => t.start < figures.sendStart);
    const seconds = (figures.doneAt - figures.sendStart) / 1000;
    const longest = during.length ? Math.max(...during.map((t) => t.duration)) : 0;
    // Each long task the observer saw, with the CPU time of the traced task it was (same start, to 1 ms).
    const cpuOf = (t: { start: number }): string => {
      const match = traced.find((x) => Math.abs(x.start - t.start) < 1.5);
      return match ? `${match.cpuMs.toFixed(1)} ms CPU` : 'not in the trace';
    };
    const cpuLong = traced.filter((t) => t.cpuMs > 50);
    const cpuLongest = traced.reduce((m, t) => Math.max(m, t.cpuMs), 0);
    const cpuTotal = traced.reduce((n, t) => n + t.cpuMs, 0);
    const top = [...traced].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 3);
    log(
      `ui-send: ${ordered} ordered, ${failed} failed in ${seconds.toFixed(1)} s (${(ordered / seconds).toFixed(1)}/s), ${figures.scrolls} scrolls; ` +
        `${during.length} long task(s) during the send, longest ${longest.toFixed(0)} ms` +
        (during.length
          ? ` (${during.map((t) => `${((t.start - figures.sendStart) / 1000).toFixed(1)} s: ${t.duration.toFixed(0)} ms, ${cpuOf(t)}`).join('; ')})`
          : '') +
        `; ${before.length - 1} before it (page load and the wizard, not counted)`,
    );
    log(
      `ui-send: the page's main thread over the send: ${traced.length} tasks, ${cpuTotal.toFixed(0)} ms CPU ` +
        `(${((cpuTotal / (seconds * 1000)) * 100).toFixed(1)}% of a core); most CPU in one task: ` +
        top.map((t) => `${t.cpuMs.toFixed(1)} ms (wall ${t.wallMs.toFixed(1)}) at ${((t.start - figures.sendStart) / 1000).toFixed(1)} s`).join(', '),
    );
    const chromiumCpu = [...trace.cpuByProcess.values()].reduce((n, ms) => n + ms, 0);
    log(
      `ui-send: Chromium's CPU over the send: ${chromiumCpu.toFixed(0)} ms (` +
        [...trace.cpuByProcess].sort((a, b) => b[1] - a[1]).map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(', ') +
        ')',
    );
    await context.close();
    emit({
      ui_long_tasks_during_send: during.length,
      ui_longest_task_ms_during_send: longest,
      ui_long_task_total_ms_during_send: during.reduce((n, t) => n + t.duration, 0),
      ui_long_tasks_cpu_during_send: cpuLong.length,
      ui_longest_task_cpu_ms_during_send: cpuLongest,
      ui_renderer_main_cpu_ms_during_send: cpuTotal,
      ui_chromium_cpu_ms_during_send: chromiumCpu,
      ui_send_orders_per_s: ordered / seconds,
      ui_send_seconds: seconds,
      ui_send_orders: ordered,
      ui_send_failed: failed,
      ui_send_scrolls: figures.scrolls,
    });
  } finally {
    await browser.close();
    await shell?.stop();
    await sim.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
