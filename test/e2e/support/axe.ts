// Accessibility: axe-core over the page as it stands, in the light and the dark scheme (each has its
// own colours, so contrast is checked in both), with every rule axe runs by default (WCAG 2.x A and
// AA, and its best practices). No rule is turned off. A violation fails the test softly: the test
// goes on, so one run lists every screen's violations, and the report names each rule, its impact,
// the elements and what to fix.
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** One readable block per violation: rule, impact, help, then each element with axe's advice. */
export function formatViolations(violations: readonly Violation[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.map((n) => {
        const html = n.html.length > 200 ? `${n.html.slice(0, 200)}…` : n.html;
        const summary = (n.failureSummary ?? '').split('\n').map((line) => `        ${line.trim()}`).join('\n');
        return `    at ${n.target.map(String).join(' ')}\n      ${html}\n${summary}`;
      });
      return `[${v.impact ?? 'unknown'}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes.join('\n')}`;
    })
    .join('\n\n');
}

/**
 * Runs axe over `page` in both colour schemes and fails (softly) with the violations, if any.
 * `label` names the screen in the report, e.g. "wizard: import step".
 */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  await test.step(`accessibility: ${label}`, async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const { violations } = await new AxeBuilder({ page }).analyze();
      if (violations.length > 0) {
        await test.info().attach(`axe ${label} (${scheme}).json`, { body: JSON.stringify(violations, null, 2), contentType: 'application/json' });
      }
      expect.soft(violations.length, `axe: ${label} (${scheme} scheme)\n\n${formatViolations(violations)}\n`).toBe(0);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });
}
