import { existsSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/temp-dirs.ts';
import { checkDataFolder, DataFolderError, openDataFolder } from '../../../electron/core/paths.ts';

const temp = () => tempDir('giftbatch-paths-');

function refusal(fn: () => unknown): DataFolderError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DataFolderError) return error;
    throw error;
  }
  throw new Error('expected a DataFolderError');
}

describe('openDataFolder', () => {
  it('creates a missing folder and its missing parents, private to its owner; an existing one is left as it is', () => {
    const data = join(temp(), 'a', 'b', 'data');
    expect(checkDataFolder(data)).toEqual([join(data, '..', '..'), join(data, '..'), data]);
    openDataFolder(data);
    expect(statSync(data).isDirectory()).toBe(true);
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(checkDataFolder(data)).toEqual([]);
    openDataFolder(data);
  });

  it('a file named as the folder, or in its way, is refused naming it; nothing is created', () => {
    const file = join(temp(), 'list.csv');
    writeFileSync(file, 'Name,Email\n');
    const itself = refusal(() => openDataFolder(file));
    expect(itself.message).toBe(`The data folder ${file} is a file, not a folder.`);
    expect(itself.folder).toBe(file);
    const under = refusal(() => openDataFolder(join(file, 'data', 'deeper')));
    expect(under.problem).toBe(`cannot be created (${file} is a file, not a folder)`);
    expect(statSync(file).isFile()).toBe(true);
  });

  it("a link to a missing folder in the way is refused naming it (was Node's bare ENOENT)", () => {
    const dir = temp();
    const link = join(dir, 'dangling');
    symlinkSync(join(dir, 'gone'), link);
    const error = refusal(() => openDataFolder(join(link, 'data')));
    expect(error.problem).toBe(`cannot be created (${link} is a link to a folder that does not exist)`);
    expect(existsSync(join(dir, 'gone'))).toBe(false);
  });

  it.skipIf(!existsSync('/proc'))('a folder under /proc is refused at once (mkdir answers ENOENT there; the recursive mkdir looped)', () => {
    const started = Date.now();
    const error = refusal(() => openDataFolder('/proc/giftbatch-nope/data'));
    expect(error.message).toBe('The data folder /proc/giftbatch-nope/data cannot be created (/proc does not take new folders).');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
