// Module resolution hook (see register.mjs): 'electron' is the fake; everything else as Node resolves it.
import { URL } from 'node:url';

const FAKE = new URL('./electron.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: FAKE, shortCircuit: true };
  return next(specifier, context);
}
