// Opening the app and going through its screens: nothing the page asks for is missing or refused,
// nothing is logged as an error, and the app's icon is there, both where the page names it and at
// /favicon.ico (which a browser asks for whatever the page says), allowed by the page's policy.
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

test('a fresh load asks for nothing missing, logs no error, and has its icon', async ({ app, shell, page }) => {
  const errors: string[] = [];
  const failed: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  page.on('requestfailed', (r) => failed.push(`${r.failure()?.errorText ?? 'failed'} ${r.url()}`));

  await app.open(shell.url);
  await expect(app.welcome.root).toBeVisible();
  for (const to of ['campaigns', 'new', 'environments'] as const) {
    await app.nav(to);
    await expect(page.locator('main h1')).toBeVisible();
  }
  // A campaign that is not there: the screen says so under its own top heading.
  await page.goto(`${page.url().split('#')[0]}#/campaigns/c_not_here`);
  await expect(page.getByTestId('campaign-error').getByRole('heading', { level: 1 })).toHaveText('This campaign could not be opened');
  await expectNoAxeViolations(page, 'campaign that cannot be opened');

  // The icons the page names, as the browser resolves them (the build makes them relative).
  const origin = new URL(page.url()).origin;
  const links = await page.locator('link[rel="icon"]').evaluateAll((els) => els.map((l) => ({ href: l.getAttribute('href') ?? '', type: l.getAttribute('type') })));
  const icons = links.map((l) => ({ href: new URL(l.href, page.url()).href, type: l.type }));
  expect(icons).toEqual([
    { href: `${origin}/favicon.ico`, type: null },
    { href: `${origin}/favicon.svg`, type: 'image/svg+xml' },
  ]);
  const ico = await page.request.get(`${origin}/favicon.ico`);
  expect(ico.status()).toBe(200);
  expect(ico.headers()['content-type']).toBe('image/x-icon');
  expect([...(await ico.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  const svg = await page.request.get(`${origin}/favicon.svg`);
  expect(svg.status()).toBe(200);
  expect(svg.headers()['content-type']).toBe('image/svg+xml');

  // The Content-Security-Policy lets the page draw both (a refusal would be a console error too).
  const drawn = await page.evaluate(async (hrefs) => {
    // (The tests are typed without the DOM library: the one browser class used here, declared.)
    const Image = (globalThis as unknown as { Image: new () => { src: string; naturalWidth: number; decode(): Promise<void> } }).Image;
    const sizes: number[] = [];
    for (const href of hrefs) {
      const img = new Image();
      img.src = href;
      await img.decode();
      sizes.push(img.naturalWidth);
    }
    return sizes;
  }, icons.map((i) => i.href));
  expect(drawn.every((w) => w > 0)).toBe(true);

  expect(failed, 'requests that failed or were answered 4xx/5xx').toEqual([]);
  expect(errors, 'console errors').toEqual([]);

  // The event channel down: the header says so and still fits on one line, its Theme select inside
  // the window, at 1280 and at 1024 px (the badge used to push the select past the right edge).
  await page.routeWebSocket(/./, (ws) => ws.close());
  await app.open(shell.url);
  await expect(page.getByTestId('connection-lost')).toBeVisible();
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 820 });
    const header = await page.locator('.topbar').evaluate((bar) => {
      // Each label of the header on a single line (a wrapped text has line boxes at two heights).
      const labels = [...bar.querySelectorAll('.nav-link, .badge span, .badge:not(:has(span)), .env-pill')];
      const wrapped = labels.filter((el) => {
        const range = el.ownerDocument.createRange();
        range.selectNodeContents(el);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 1).map((r) => Math.round(r.top)));
        return tops.size > 1;
      });
      const select = bar.querySelector('[data-testid="theme-select"]')?.getBoundingClientRect();
      return { overflow: bar.scrollWidth - bar.clientWidth, selectRight: select?.right ?? Infinity, wrapped: wrapped.map((el) => el.textContent) };
    });
    expect(header.overflow, `header overflow at ${width} px`).toBeLessThanOrEqual(0);
    expect(header.selectRight, `Theme select's right edge at ${width} px`).toBeLessThanOrEqual(width);
    expect(header.wrapped, `header labels on two lines at ${width} px`).toEqual([]);
  }
  await app.screenshot('page-load-reconnecting-1024');
});
