// The renderer's only door to the app: one named function per call of the contract, each an
// ipcRenderer.invoke of that one channel, and `on` for the contract's events only. No generic
// invoke, no Node, and nothing that could return a secret (the engine never hands one out).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CALL_NAMES, EVENT_NAMES } from './channels.ts';

type Listener = (payload: unknown) => void;

const calls = Object.fromEntries(CALL_NAMES.map((name) => [name, (input: unknown) => ipcRenderer.invoke(name, input ?? {})]));

function on(event: string, listener: Listener): () => void {
  if (!(EVENT_NAMES as readonly string[]).includes(event)) throw new Error(`"${event}" is not an event of Giftbatch`);
  if (typeof listener !== 'function') throw new Error('on(event, listener) needs a function');
  // The IPC event object (with its sender) never reaches the page: only the payload.
  const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
  ipcRenderer.on(event, wrapped);
  return () => {
    ipcRenderer.removeListener(event, wrapped);
  };
}

contextBridge.exposeInMainWorld('giftbatch', Object.freeze({ ...calls, on }));
