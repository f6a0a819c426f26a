// The renderer's only door to the app. It exposes named calls of the contract (shared/contract.ts,
// with the desktop issue), never a generic invoke and never a secret.
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('giftbatch', Object.freeze({ shell: 'desktop' as const }));
