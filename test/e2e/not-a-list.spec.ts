// Files picked by mistake on the import step: a Word document, a PDF, then an empty file. Each is
// refused saying what it is, and only the last choice's reason is on screen, never another file's
// name or an older error beside it; a real list then reads as usual.
import { zipParts } from '../support/workbook-files.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

test('a Word document, a PDF and an empty file are each refused with their own reason only', async ({ app, shell, page }) => {
  await app.open(shell.url);
  await app.nav('new');
  await app.wizard.chooseProduct('Brightleaf Coffee');
  await app.wizard.fillSetup({ sender: 'Events team' });
  await app.wizard.next();

  const docx = Buffer.from(zipParts({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' }));
  await app.wizard.chooseFile({ name: 'guests.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: docx });
  await expect(page.getByTestId('preview-error')).toHaveText(/^The file is a Word document, not a list of recipients\. Choose the spreadsheet itself/);
  await app.screenshot('u1-word-document');
  await expectNoAxeViolations(page, 'wizard: import step, a Word document refused');

  const pdf = Buffer.from('%PDF-1.5\n%\u00e2\u00e3\n1 0 obj <<>> endobj\nName,Email\nAnn,ann@example.com\n', 'latin1');
  await app.wizard.chooseFile({ name: 'guests.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(page.getByTestId('preview-error')).toHaveText(/^The file is a PDF document, not a list of recipients\./);
  await expect(page.getByTestId('file-name')).toHaveText('guests.pdf');
  await expect(page.getByTestId('preview-problems')).toHaveCount(0);

  // Refused before it is read: the PDF's name and its error go with it.
  await app.wizard.chooseFile({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
  await expect(page.getByTestId('file-error')).toContainText('"empty.csv" is empty');
  await expect(page.getByTestId('preview-error')).toHaveCount(0);
  await expect(page.getByTestId('file-name')).toHaveCount(0);
  await expect(page.getByTestId('wiz-file-choose')).toHaveText('Choose a file…');
  await app.screenshot('u2-empty-after-pdf');
  await expectNoAxeViolations(page, 'wizard: import step, empty file after a PDF');

  await app.wizard.chooseFile({ name: 'guests.csv', mimeType: 'text/csv', buffer: Buffer.from('Name,Email\nAnn Lee,ann@example.com\n') });
  await app.wizard.expectPreviewReady();
  await expect(page.getByTestId('file-error')).toHaveCount(0);
  await expect(page.getByTestId('preview-valid')).toHaveText('1');
});
