import { expect, type Locator, type Page } from '@playwright/test';
import type { Environment } from '../../../shared/domain/campaigns.ts';

export type Env = Environment;

export class EnvironmentsPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('environments-screen');
  }

  card(env: Env): Locator {
    return this.page.getByTestId(`env-${env}`);
  }

  async use(env: Env): Promise<void> {
    await this.page.getByTestId(`env-${env}-use`).click();
    await expect(this.page.getByTestId(`env-${env}-in-use`)).toBeVisible();
  }

  async setAddress(env: Env, url: string): Promise<void> {
    await this.page.getByTestId(`env-${env}-url`).fill(url);
    await this.page.getByTestId(`env-${env}-url-save`).click();
    await expect(this.card(env).getByRole('status')).toHaveText(/saved/i);
  }

  async setRate(env: Env, rate: number): Promise<void> {
    const card = this.card(env);
    await card.getByLabel('Requests per second').fill(String(rate));
    await card.getByRole('button', { name: 'Save rate' }).click();
    await expect(card.getByRole('status')).toHaveText(/saved/i);
  }

  keyStatus(env: Env): Locator {
    return this.page.getByTestId(`env-${env}-key-status`);
  }

  async setKey(env: Env, key: string): Promise<void> {
    await this.page.getByTestId(`env-${env}-key`).fill(key);
    await this.page.getByTestId(`env-${env}-key-save`).click();
  }

  async testConnection(env: Env): Promise<Locator> {
    await this.page.getByTestId(`env-${env}-test`).click();
    const result = this.page.getByTestId(`env-${env}-test-result`);
    await expect(result).toBeVisible({ timeout: 20_000 });
    return result;
  }
}
