// giftbatch template: writes the recipient list template (the app's "Download the template"), an
// empty list with the columns Giftbatch reads and a note on each, as .xlsx or .csv by --out's
// extension. Same file as the app's (templateFile); needs no service and no data folder.
import { statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { writeFileAtomically } from '../../core/campaigns/report.ts';
import { isTemplateFormat, TEMPLATE_COLUMNS, TEMPLATE_FORMATS, templateFile } from '../../core/workbook/template.ts';
import { EXIT, UsageError } from '../exit-codes.ts';
import { checkOutFile, commonOf, out, parseCommand, printJson } from '../options.ts';
import { shellWord } from '../shell-word.ts';

const TEMPLATE_HELP = `Usage: giftbatch template --out FILE.xlsx|FILE.csv [--force] [--json]
Writes an empty recipient list with the columns Giftbatch reads
(${TEMPLATE_COLUMNS.map((c) => c.header).join(', ')}), a note over each column, as a workbook or a CSV
file by the extension of FILE. An existing FILE is left as it is (exit 2) unless --force is given:
it may be a list already filled in. Needs no service and no data folder.`;

const TEMPLATE_OPTIONS = `Options:
  --force  replace FILE if it exists
  --json   print exactly one JSON document on stdout`;

/** `template list.xlsx`: the file goes after --out (a name without .xlsx or .csv gets .xlsx in the advice). */
function noFileName(given: string): string {
  const file = isTemplateFormat(extname(given).slice(1).toLowerCase()) ? given : `${given}.xlsx`;
  return `template takes no file name; write it with --out ${shellWord(file)}`;
}

export async function templateCommand(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv, { out: { type: 'string' }, force: { type: 'boolean' } }, TEMPLATE_HELP, TEMPLATE_OPTIONS, noFileName);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  if (!parsed.values.out) throw new UsageError(`--out FILE.xlsx or FILE.csv is required.\n\n${TEMPLATE_HELP}`);
  const file = resolve(parsed.values.out);
  const format = extname(file).slice(1).toLowerCase();
  if (!isTemplateFormat(format)) {
    throw new UsageError(`--out must end in ${TEMPLATE_FORMATS.map((f) => `.${f}`).join(' or ')} (got "${parsed.values.out}"): the extension chooses the template's format.`);
  }
  checkOutFile(file);
  // An empty template written over a list someone has filled in would lose their rows.
  if (!parsed.values.force && statSync(file, { throwIfNoEntry: false })) {
    throw new UsageError(`${file} already exists; nothing was written. Name another file with --out, or add --force to replace it with an empty template.`);
  }
  const { bytes } = templateFile(format);
  // Written beside the target, then renamed over it: the file is whole or absent.
  try {
    writeFileAtomically(file, bytes);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot write ${file}: ${code === 'ENOENT' ? 'its folder does not exist' : (error as Error).message}.`);
  }
  if (common.json) printJson({ file, format, columns: TEMPLATE_COLUMNS.map((c) => c.header) });
  else out(`Wrote the ${format === 'xlsx' ? 'workbook' : 'CSV'} template (${TEMPLATE_COLUMNS.map((c) => c.header).join(', ')}) to ${file}`);
  return EXIT.ok;
}
