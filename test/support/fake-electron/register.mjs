// `node --import ./register.mjs`: the bare specifier 'electron' resolves to ./electron.mjs, a fake of
// the few Electron APIs the built main process touches, so out/main/index.js runs under plain Node.
import { register } from 'node:module';
import { URL } from 'node:url';

register(new URL('./hooks.mjs', import.meta.url));
