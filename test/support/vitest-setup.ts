// Loaded before every test file (test/vitest.config.ts setupFiles). Registered first, so run last:
// after the file's own afterAll hooks have stopped the processes that use its temp folders.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dirs.ts';

afterAll(removeTempDirs);
