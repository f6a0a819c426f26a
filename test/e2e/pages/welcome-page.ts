import type { Locator, Page } from '@playwright/test';

export class WelcomePage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('welcome');
  }

  get simulatedNote(): Locator {
    return this.page.getByTestId('welcome-simulated');
  }

  async startWithSample(): Promise<void> {
    await this.page.getByTestId('welcome-sample').click();
  }
}
