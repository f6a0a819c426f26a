// What a window says when it and the engine were built from different contracts (a browser shell
// still running the old server after the renderer was rebuilt, or the reverse): nothing it could
// draw would be trustworthy, and only a restart of Giftbatch brings the two together again.
import type { CallOutput } from '../../../shared/contract.ts';

export const DIFFERENT_BUILDS = 'This window and the Giftbatch engine are from different builds: restart Giftbatch.';
export const RESTART_BROWSER_SHELL = 'Stop `npm start` (or `npm run web`) in its terminal, start it again, and open the address it prints.';
export const RESTART_DESKTOP = 'Quit Giftbatch and open it again.';

/** The whole message, with the way to restart this shell. */
export function differentBuildsMessage(shell: CallOutput<'app:info'>['shell']): string {
  return `${DIFFERENT_BUILDS} ${shell === 'desktop' ? RESTART_DESKTOP : RESTART_BROWSER_SHELL}`;
}
