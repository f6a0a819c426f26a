// Development and tests only (the browser shell, the CLI, vitest, benches run the TypeScript
// source through tsx): starts the import worker's source in its worker thread. Node 20 ignores a
// worker's --import loaders (execArgv; nodejs/node#47747), so tsx is registered here, inside the
// thread, before the .ts entry is imported. The packaged app runs the bundled import-worker.js.
import { register } from 'tsx/esm/api';

register();
await import('./import-worker.ts');
