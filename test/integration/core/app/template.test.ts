// app:template through the app service: the same file as templateFile (and so as giftbatch
// template), in each format; a format the template is not given in is refused before the handler.
import { describe, expect, it } from 'vitest';
import { templateFile } from '../../../../electron/core/workbook/template.ts';
import { startService } from '../../../support/app-harness.ts';
import { tempDir } from '../../../support/index.ts';

describe('app:template', () => {
  it('gives the template as .xlsx and as .csv, named for its format', async () => {
    const h = await startService(tempDir());
    for (const format of ['xlsx', 'csv'] as const) {
      const answer = await h.ok('app:template', { format });
      expect(answer.fileName).toBe(`giftbatch-recipients-template.${format}`);
      expect(new Uint8Array(Buffer.from(answer.bytesBase64, 'base64'))).toEqual(templateFile(format).bytes);
    }
  });

  it('refuses another format as invalid input', async () => {
    const h = await startService(tempDir());
    const result = await h.service.invoke('app:template', { format: 'ods' } as never);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(result.ok ? '' : result.error.message).toMatch(/format/);
  });
});
