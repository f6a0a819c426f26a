import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const SCREENSHOTS = join(ROOT, 'test', '.artifacts', 'screenshots');
export const SAMPLE_CSV = join(ROOT, 'resources', 'sample-recipients.csv');
