import type { Locator, Page } from '@playwright/test';

export class CampaignsPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('campaigns-screen');
  }

  campaign(name: string): Locator {
    return this.page.getByTestId('campaign-row').filter({ hasText: name });
  }

  async resume(name: string): Promise<void> {
    await this.campaign(name).getByTestId('campaign-resume').click();
    await this.page.getByTestId('resume-confirm').click();
  }
}
