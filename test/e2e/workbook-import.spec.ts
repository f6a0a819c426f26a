// Issue 13, workbooks in the app: a two-sheet workbook (notes first, the speakers below a title row,
// currency-formatted amounts and a formula) dropped on the import step; the step asks which sheet,
// listing each with its rows, as a labelled radio group chosen by keyboard; the chosen sheet is read
// ("Workbook, sheet Speakers (14 filled rows, header included): 12 recipient rows, 1 row above the header"), made a draft and sent: one order per valid row.
import { ods, xlsx, type XCell } from '../support/workbook-files.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

const PRODUCT = 'Harborline Market eGift';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function speakers(): XCell[][] {
  const rows: XCell[][] = [['Conference 2024: speakers'], [], ['Full name', 'E-mail address', 'Gift value']];
  for (let i = 1; i <= 12; i++) {
    const amount: XCell = i === 3 ? { f: '20+5', v: '25' } : { n: i % 2 ? 50 : 25, style: 1 };
    rows.push([`Speaker ${i}`, i === 5 ? 'speaker5-at-example.com' : `speaker${i}@example.org`, amount]);
  }
  return rows;
}

const BOOK = Buffer.from(
  xlsx([
    { name: 'Notes', rows: [['Budget'], ['Cards', { n: 600 }], ['Fees', { f: 'B2*0.02', v: '12' }]] },
    { name: 'Speakers', rows: speakers() },
  ]),
);

test('a workbook dropped on the import step: its sheet chosen, previewed, made a draft and sent', async ({ app, shell, page }) => {
  await app.open(shell.url);
  await app.nav('new');
  await app.wizard.chooseProduct(PRODUCT);
  await app.wizard.fillSetup({ name: 'Speakers 2024', sender: 'Programme team' });
  await app.wizard.next();

  // The picker offers workbooks beside CSV files.
  const accept = (await page.getByTestId('wiz-file').getAttribute('accept')) ?? '';
  expect(accept.split(',')).toEqual(expect.arrayContaining(['.csv', '.xlsx', '.ods', XLSX_TYPE]));

  // Dropped as a person drops it: a drop event carrying the file.
  // (The browser's DataTransfer and File, typed here: the end-to-end suite is compiled without the DOM's types.)
  type BrowserGlobals = { DataTransfer: new () => { items: { add(file: unknown): void } }; File: new (parts: Uint8Array[], name: string, options: { type: string }) => unknown };
  const transfer = await page.evaluateHandle(
    ({ bytes, name, type }) => {
      const browser = globalThis as unknown as BrowserGlobals;
      const data = new browser.DataTransfer();
      data.items.add(new browser.File([new Uint8Array(bytes)], name, { type }));
      return data;
    },
    { bytes: [...BOOK], name: 'speakers.xlsx', type: XLSX_TYPE },
  );
  await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer: transfer });
  await app.wizard.expectPreviewReady();

  // Several sheets hold rows: the step asks which one, each with its rows; nothing can be saved yet.
  const chooser = page.getByRole('group', { name: 'Which sheet holds the recipients?' });
  await expect(chooser).toBeVisible();
  await expect(chooser.getByTestId('sheet-option')).toHaveText(['Notes (3 filled rows, header included)', 'Speakers (14 filled rows, header included)']);
  await expect(chooser.getByRole('radio', { checked: true })).toHaveCount(0);
  await expect(page.getByTestId('mapping')).toHaveCount(0);
  await expect(app.wizard.createButton).toBeDisabled();
  await app.screenshot('50-workbook-choose-sheet');
  await expectNoAxeViolations(page, 'wizard: import step, workbook sheet to choose');

  // By keyboard: the first sheet's radio, then the arrow to the next one chooses it.
  await chooser.getByRole('radio', { name: /Notes/ }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(chooser.getByRole('radio', { name: /Speakers/ })).toBeChecked();
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('detected-workbook')).toHaveText('Workbook, sheet Speakers (14 filled rows, header included): 12 recipient rows, 1 row above the header');
  await app.screenshot('50b-workbook-sheet-read');
  await expect(app.wizard.encoding).toHaveCount(0);
  await expect(page.getByTestId('preview-valid')).toHaveText('11');
  await expect(page.getByTestId('preview-invalid')).toHaveText('1');
  // Speakers 1..12: odd at 50, even at 25; speaker 3's formula is 25; speaker 5 (50) is invalid.
  await expect(page.getByTestId('preview-cost')).toContainText('375.00');
  await app.screenshot('51-workbook-sheet-read');
  await expectNoAxeViolations(page, 'wizard: import step, workbook sheet read');

  // The draft is made from the chosen sheet; line numbers are the sheet's rows.
  await app.wizard.createDraft();
  await expect(app.wizard.costCount).toHaveText('11');
  await expect(app.wizard.costTotal).toHaveText('USD 375.00');
  await app.wizard.filter('errors');
  await expect(page.locator('[data-testid="draft-row"][data-status="invalid"]')).toHaveAttribute('data-line', '8');
  await app.wizard.filter('all');
  await app.screenshot('52-workbook-draft-review');
  await expectNoAxeViolations(page, 'wizard: review step of a workbook');

  await app.wizard.openConfirm();
  await expect(page.getByTestId('confirm-count')).toHaveText('11');
  await app.wizard.confirmSend();
  await expect(app.campaign.root).toBeVisible();
  await app.campaign.checkUntilDelivered(11);
  await expect(app.campaign.rows('invalid')).toHaveCount(1);
  await app.screenshot('53-workbook-campaign-sent');
});

test('a one-sheet .ods chosen with the file picker is read at once, no sheet to choose', async ({ app, shell, page }) => {
  await app.open(shell.url);
  await app.nav('new');
  await app.wizard.chooseProduct(PRODUCT);
  await app.wizard.fillSetup({ name: 'Guests', sender: 'Programme team' });
  await app.wizard.next();
  const book = ods([{ name: 'Guests', rows: [['Name', 'Email', 'Amount'], ['Ann', 'ann@example.org', { float: '25', type: 'currency', shown: '$25.00' }]] }]);
  await app.wizard.chooseFile({ name: 'guests.ods', mimeType: 'application/vnd.oasis.opendocument.spreadsheet', buffer: Buffer.from(book) });
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('sheet-chooser')).toHaveCount(0);
  await expect(page.getByTestId('detected-workbook')).toHaveText('Workbook, sheet Guests (2 filled rows, header included): 1 recipient row');
  await expect(page.getByTestId('preview-valid')).toHaveText('1');
  await expect(app.wizard.createButton).toBeEnabled();
});
