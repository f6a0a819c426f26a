// The import worker's plumbing that needs no thread: where its code is found (source and built),
// how errors cross back, and what the app answers when an import stopped.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../../../../electron.vite.config.ts';
import { classifyError, errorText } from '../../../../electron/core/app/errors.ts';
import { errorData, plainError, purposefulError } from '../../../../electron/core/app/import-jobs.ts';
import { ImportStoppedError, importWorkerUrl } from '../../../../electron/core/app/import-runner.ts';
import { DISK_FULL_MESSAGE, NetworkFolderError } from '../../../../electron/core/db/open.ts';
import { CsvLimitError, rowLimitError } from '../../../../shared/domain/csv/limits.ts';
import { MoneyError } from '../../../../shared/domain/money.ts';

describe('where the import worker is', () => {
  it('from the TypeScript source: the tsx starter beside it, which imports the worker source beside it', () => {
    const url = importWorkerUrl('file:///repo/electron/core/app/import-runner.ts');
    expect(url.href).toBe('file:///repo/electron/core/app/import-worker-dev.mjs');
    const real = importWorkerUrl(new URL('../../../../electron/core/app/import-runner.ts', import.meta.url).href);
    expect(existsSync(fileURLToPath(real))).toBe(true);
    expect(existsSync(fileURLToPath(new URL('./import-worker.ts', real)))).toBe(true);
  });

  it('from the bundle, whichever of its files holds the runner: import-worker.js beside it', () => {
    expect(importWorkerUrl('file:///app/resources/app.asar/out/main/index.js').href).toBe('file:///app/resources/app.asar/out/main/import-worker.js');
    expect(importWorkerUrl('file:///app/out/main/import-jobs-AbC123.js').href).toBe('file:///app/out/main/import-worker.js');
  });

  it('is built as a second input of the main process, with the shared chunks beside it', () => {
    const main = (config as { main: { build: { rollupOptions: { input: Record<string, string>; output: { chunkFileNames: string } } } } }).main.build.rollupOptions;
    expect(fileURLToPath(new URL('../../../../electron/core/app/import-worker.ts', import.meta.url))).toBe(main.input['import-worker']);
    expect(main.output.chunkFileNames).not.toContain('/');
  });
});

describe('errors from the import worker', () => {
  it.each([
    ['a file past a limit', rowLimitError()],
    ['a bad amount', new MoneyError('"1.234" has more decimals than USD takes')],
    ['a network folder', new NetworkFolderError('The data folder /mnt/x is on a network filesystem (NFS).')],
    ['a full disk', Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })],
  ])('%s crosses back as itself: the same code and message as on this thread', (_what, error) => {
    const rebuilt = purposefulError(errorData(error));
    expect(rebuilt).not.toBeNull();
    expect(classifyError(rebuilt, 'campaigns:create')).toEqual(classifyError(error, 'campaigns:create'));
    expect(classifyError(rebuilt, 'campaigns:create').expected).toBe(true);
  });

  it('keeps the class of a limit error', () => {
    expect(purposefulError(errorData(rowLimitError()))).toBeInstanceOf(CsvLimitError);
    expect(classifyError(purposefulError(errorData(Object.assign(new Error('x'), { code: 'SQLITE_FULL' }))), 'c').message).toBe(DISK_FULL_MESSAGE);
  });

  it('anything else is the import stopping: internal, says nothing was stored, and logs the cause with its stack', () => {
    const data = errorData(new TypeError('cannot read properties of undefined'));
    expect(purposefulError(data)).toBeNull();
    const stopped = new ImportStoppedError('create', plainError(data));
    const classified = classifyError(stopped, 'campaigns:create');
    expect(classified).toEqual({ code: 'internal', message: expect.stringMatching(/^The import stopped before it finished; nothing was stored and no campaign was created\. Try again/), expected: false });
    expect(classifyError(new ImportStoppedError('preview', new Error('x')), 'c').message).toMatch(/^Checking the file stopped before it finished; nothing was stored/);
    const logged = errorText(stopped);
    expect(logged).toMatch(/ImportStoppedError[\s\S]*caused by: TypeError: cannot read properties of undefined/);
    expect(logged).toContain('import-runner.test.ts');
  });
});
