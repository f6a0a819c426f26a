// One campaign: counters, rows by status, Check now, pause/resume, the report.
import { expect, type Download, type Locator, type Page } from '@playwright/test';

export class CampaignPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('campaign-screen');
  }

  rows(status?: string): Locator {
    return status ? this.page.locator(`[data-testid="row"][data-status="${status}"]`) : this.page.getByTestId('row');
  }

  rowByEmail(email: string): Locator {
    return this.page.locator(`[data-testid="row"][data-email="${email}"]`);
  }

  /** The warning markers of rows whose order the service issued otherwise than asked. */
  get rowFlags(): Locator {
    return this.page.getByTestId('row-flag');
  }

  count(which: 'to-send' | 'ordered' | 'delivered' | 'failed' | 'flagged'): Locator {
    return this.page.getByTestId(`count-${which}`);
  }

  async checkNow(): Promise<void> {
    const button = this.page.getByTestId('campaign-check');
    await expect(button).toBeEnabled();
    await button.click();
    await expect(button).toBeEnabled();
  }

  /** Presses Check now until every row that was sent is delivered (the simulator delivers after a few seconds). */
  async checkUntilDelivered(expected: number): Promise<void> {
    await expect(async () => {
      await this.checkNow();
      await expect(this.count('delivered')).toHaveText(String(expected), { timeout: 1500 });
    }).toPass({ timeout: 45_000, intervals: [1000, 2000] });
  }

  async exportReport(): Promise<Download> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId('campaign-export').click()]);
    return download;
  }

  async resume(): Promise<void> {
    await this.page.getByTestId('campaign-resume').click();
    await this.page.getByTestId('resume-confirm').click();
  }
}
