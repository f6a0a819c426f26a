// The new-campaign wizard: gift, recipients, review and send.
import { expect, type Locator, type Page } from '@playwright/test';
import type { MappedField } from '../../../shared/domain/csv/headers.ts';

export class NewCampaignPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('new-campaign');
  }

  async expectStep(step: 'setup' | 'import' | 'review'): Promise<void> {
    await expect(this.root).toHaveAttribute('data-step', step);
  }

  // Step 1
  async chooseCountry(code: string): Promise<void> {
    await this.page.getByTestId('wiz-country').selectOption(code);
  }

  product(name: string): Locator {
    return this.page.getByTestId('product-option').filter({ hasText: name });
  }

  async chooseProduct(name: string): Promise<void> {
    await this.product(name).locator('label').first().click();
  }

  /** A product record the service does not describe in full, listed with its problem. */
  unreadableProduct(name: string): Locator {
    return this.page.getByTestId('unreadable-product').filter({ hasText: name });
  }

  /** Answers "Which currency are its amounts in?" for a product whose record states none. */
  async chooseCurrency(name: string, code: string): Promise<void> {
    const chooser = this.unreadableProduct(name).getByTestId('currency-chooser');
    await chooser.getByTestId('currency-select').selectOption(code);
    await chooser.getByTestId('currency-use').click();
    await expect(this.product(name).getByRole('radio')).toBeChecked();
  }

  currencyNote(name: string): Locator {
    return this.product(name).getByTestId('currency-note');
  }

  async fillSetup(fields: { name?: string; sender?: string; defaultAmount?: string }): Promise<void> {
    if (fields.name !== undefined) await this.page.getByTestId('wiz-name').fill(fields.name);
    if (fields.sender !== undefined) await this.page.getByTestId('wiz-sender').fill(fields.sender);
    if (fields.defaultAmount !== undefined) await this.page.getByTestId('wiz-amount').fill(fields.defaultAmount);
  }

  async next(): Promise<void> {
    await this.page.getByTestId('wiz-next').click();
    await this.expectStep('import');
  }

  // Step 2
  async uploadFile(file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    await this.page.getByTestId('wiz-file').setInputFiles(file);
  }

  /** As a person does it: the "Choose a file…" button opens the browser's file chooser. */
  async chooseFile(file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    const [chooser] = await Promise.all([this.page.waitForEvent('filechooser'), this.page.getByTestId('wiz-file-choose').click()]);
    await chooser.setFiles(file);
  }

  async expectPreviewReady(): Promise<void> {
    await expect(this.page.getByTestId('step-import')).toHaveAttribute('data-preview', 'ready');
  }

  get encoding(): Locator {
    return this.page.getByTestId('detected-encoding');
  }

  get delimiter(): Locator {
    return this.page.getByTestId('detected-delimiter');
  }

  async map(field: MappedField, header: string): Promise<void> {
    await this.page.getByTestId(`map-${field}`).selectOption({ label: header });
  }

  /** The field read from no column ("— not in the file —"). */
  async unmap(field: MappedField): Promise<void> {
    await this.page.getByTestId(`map-${field}`).selectOption('-1');
  }

  get createButton(): Locator {
    return this.page.getByTestId('wiz-create');
  }

  async createDraft(): Promise<void> {
    await this.createButton.click();
    await this.expectStep('review');
    await expect(this.page.getByTestId('draft-table')).toBeVisible();
  }

  // Step 3
  row(line: number): Locator {
    return this.page.locator(`[data-testid="draft-row"][data-line="${line}"]`);
  }

  async filter(which: 'all' | 'errors' | 'duplicates'): Promise<void> {
    await this.page.getByTestId(`filter-${which}`).click();
  }

  /**
   * Opens the row editor of `line` and returns it. The table may redraw as the draft's rows arrive
   * (closing an editor just opened): it is opened again until it stays open.
   */
  async openEditor(line: number): Promise<Locator> {
    const editor = this.page.locator(`[data-testid="draft-row-editor"][data-line="${line}"]`);
    await expect(async () => {
      if ((await editor.count()) === 0) await this.row(line).getByTestId('row-edit').click();
      await expect(editor).toBeVisible({ timeout: 2_000 });
    }).toPass();
    return editor;
  }

  async editRow(line: number, fields: { name?: string; email?: string; amount?: string; message?: string }): Promise<void> {
    await this.row(line).getByTestId('row-edit').click();
    const editor = this.page.locator(`[data-testid="draft-row-editor"][data-line="${line}"]`);
    for (const [field, value] of Object.entries(fields)) await editor.getByTestId(`edit-${field}`).fill(value);
    await editor.getByTestId('edit-save').click();
    await expect(editor).toHaveCount(0);
  }

  async skipRow(line: number): Promise<void> {
    await this.row(line).getByTestId('row-skip').click();
    await expect(this.row(line)).toHaveAttribute('data-status', 'skipped');
  }

  get costCount(): Locator {
    return this.page.getByTestId('cost-count');
  }

  get costTotal(): Locator {
    return this.page.getByTestId('cost-total');
  }

  get confirmDialog(): Locator {
    return this.page.getByTestId('confirm-dialog');
  }

  async openConfirm(): Promise<void> {
    await this.page.getByTestId('wiz-send').click();
    await expect(this.confirmDialog).toBeVisible();
  }

  async confirmSend(): Promise<void> {
    await this.page.getByTestId('confirm-send').click();
  }
}
