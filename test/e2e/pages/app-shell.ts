// The app around every screen: opening it, its ready signal, the navigation, the Simulator badge,
// and screenshots in both themes.
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { SCREENSHOTS } from '../support/paths.ts';
import { CampaignPage } from './campaign-page.ts';
import { CampaignsPage } from './campaigns-page.ts';
import { EnvironmentsPage } from './environments-page.ts';
import { NewCampaignPage } from './new-campaign-page.ts';
import { WelcomePage } from './welcome-page.ts';

export class AppShell {
  readonly welcome: WelcomePage;
  readonly wizard: NewCampaignPage;
  readonly campaign: CampaignPage;
  readonly campaigns: CampaignsPage;
  readonly environments: EnvironmentsPage;

  constructor(readonly page: Page) {
    this.welcome = new WelcomePage(page);
    this.wizard = new NewCampaignPage(page);
    this.campaign = new CampaignPage(page);
    this.campaigns = new CampaignsPage(page);
    this.environments = new EnvironmentsPage(page);
  }

  get root(): Locator {
    return this.page.getByTestId('app');
  }

  get simulatorBadge(): Locator {
    return this.page.getByTestId('simulator-badge');
  }

  /** Opens the address the shell printed and waits for the app's own ready signal. */
  async open(url: string): Promise<void> {
    // The address differs from the page's only in its fragment (the token): go through a blank page
    // so this is a fresh load, not a jump within the page.
    await this.page.goto('about:blank');
    await this.page.goto(url);
    await expect(this.root).toHaveAttribute('data-state', 'ready');
  }

  async nav(to: 'campaigns' | 'new' | 'environments'): Promise<void> {
    await this.page.getByTestId(`nav-${to}`).click();
  }

  /** Presses Tab until `target` has the focus: proves it is reachable by keyboard, in tab order. */
  async focusByTab(target: Locator, maxPresses = 30): Promise<void> {
    for (let i = 0; i < maxPresses; i++) {
      await this.page.keyboard.press('Tab');
      if (await target.evaluate((el) => el === el.ownerDocument.activeElement)) return;
    }
    throw new Error(`not reached by ${maxPresses} presses of Tab`);
  }

  /**
   * Saves the page as `<name>-light.png` and `<name>-dark.png` under test/.artifacts/screenshots, and
   * as `<name>.png` (light) in E2E_SHOTS_DIR too when that is set, for a person to look at.
   */
  async screenshot(name: string): Promise<void> {
    for (const scheme of ['light', 'dark'] as const) {
      await this.page.emulateMedia({ colorScheme: scheme });
      await this.fullPage(join(SCREENSHOTS, `${name}-${scheme}.png`));
    }
    await this.page.emulateMedia({ colorScheme: 'light' });
    const extra = process.env.E2E_SHOTS_DIR;
    if (extra) await this.fullPage(join(extra, `${name}.png`));
  }

  /**
   * The whole screen in one image. The window scrolls only the screen between the topbar and the
   * notices (each in its own space), so for the capture the page grows to the screen's full height
   * (the notices then follow the screen); the screen's scroll position is put back after.
   */
  private async fullPage(path: string): Promise<void> {
    const main = this.page.locator('main#main');
    const top = await main.evaluate((el) => el.scrollTop).catch(() => 0);
    const grow = await this.page.addStyleTag({ content: '.app { height: auto !important; } .main { overflow: visible !important; }' });
    try {
      await this.page.screenshot({ path, fullPage: true, animations: 'disabled' });
    } finally {
      await grow.evaluate((el) => el.remove());
      await main.evaluate((el, y) => el.scrollTo(0, y), top).catch(() => undefined);
    }
  }
}
