// Issue 13, the template in the app: the import step's empty state offers the recipient list
// template as .xlsx and as .csv; what downloads is the engine's template (the same bytes as
// `giftbatch template`), and the workbook, filled with two recipients under its header, comes back
// through the file picker as 2 rows ready to send.
import { readFileSync } from 'node:fs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { templateFile } from '../../electron/core/workbook/template.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

const PRODUCT = 'Harborline Market eGift';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

test('the import step gives the template, which comes back filled as two ready rows', async ({ app, shell, page }) => {
  await app.open(shell.url);
  await app.nav('new');
  await app.wizard.chooseProduct(PRODUCT);
  await app.wizard.fillSetup({ name: 'From the template', sender: 'Programme team' });
  await app.wizard.next();

  const links = page.getByTestId('template-links');
  await expect(links).toContainText('Download the template');
  await expect(page.getByRole('button', { name: 'Download the template as an Excel workbook (.xlsx)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download the template as a CSV file' })).toBeVisible();
  await expectNoAxeViolations(page, 'wizard: import step with the template links');
  await app.screenshot('60-import-template-links');

  const downloaded: Record<string, Buffer> = {};
  for (const format of ['xlsx', 'csv'] as const) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`template-${format}`).click()]);
    expect(download.suggestedFilename()).toBe(`giftbatch-recipients-template.${format}`);
    downloaded[format] = readFileSync((await download.path())!);
    expect(new Uint8Array(downloaded[format])).toEqual(templateFile(format).bytes);
  }

  // Two recipients typed under the header, the amount a number, as Excel stores them.
  const parts = unzipSync(new Uint8Array(downloaded.xlsx!));
  const rows =
    '<row r="3"><c r="A3" t="inlineStr"><is><t>Ann Lee</t></is></c><c r="B3" t="inlineStr"><is><t>ann@example.org</t></is></c><c r="C3"><v>25</v></c></row>' +
    '<row r="4"><c r="A4" t="inlineStr"><is><t>Bob Day</t></is></c><c r="B4" t="inlineStr"><is><t>bob@example.org</t></is></c><c r="C4"><v>50</v></c></row>';
  parts['xl/worksheets/sheet1.xml'] = strToU8(strFromU8(parts['xl/worksheets/sheet1.xml']!).replace('</sheetData>', `${rows}</sheetData>`));
  await app.wizard.chooseFile({ name: 'giftbatch-recipients-template.xlsx', mimeType: XLSX_TYPE, buffer: Buffer.from(zipSync(parts)) });
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('detected-workbook')).toHaveText('Workbook, sheet Recipients (4 filled rows, header included): 2 recipient rows, 1 row above the header');
  await expect(page.getByTestId('preview-valid')).toHaveText('2');
  await expect(page.getByTestId('preview-invalid')).toHaveText('0');
  await expect(links).toHaveCount(0);
  await expect(app.wizard.createButton).toBeEnabled();
  await app.screenshot('61-import-template-filled');
});
