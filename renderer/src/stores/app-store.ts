// The app as a whole: what the engine says about itself, the welcome on first launch, the screen
// shown, the event channel's state, the theme, and one-line notices.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CallOutput } from '../../../shared/contract.ts';
import type { ConnectionState } from '../api/event-socket.ts';
import type { Route } from '../lib/route.ts';
import { settle, type StoreDeps } from './deps.ts';

export type AppInfo = CallOutput<'app:info'>;
export type ThemeChoice = 'system' | 'light' | 'dark';

export interface Notice {
  id: number;
  kind: 'info' | 'success' | 'error';
  text: string;
}

export interface AppState {
  phase: 'loading' | 'ready' | 'failed';
  loadError: string | null;
  info: AppInfo | null;
  route: Route;
  connection: ConnectionState | 'local';
  theme: ThemeChoice;
  notices: Notice[];
  load(initialRoute: Route | null): Promise<void>;
  navigate(route: Route): void;
  dismissWelcome(): Promise<void>;
  setTheme(theme: ThemeChoice): void;
  setConnection(state: ConnectionState): void;
  notify(kind: Notice['kind'], text: string): void;
  dismissNotice(id: number): void;
}

export type AppStore = StoreApi<AppState>;

export function createAppStore(deps: StoreDeps, initialTheme: ThemeChoice = 'system'): AppStore {
  let nextNotice = 1;
  return createStore<AppState>()((set, get) => ({
    phase: 'loading',
    loadError: null,
    info: null,
    route: { name: 'campaigns' },
    connection: deps.api.onConnectionChange ? 'connecting' : 'local',
    theme: initialTheme,
    notices: [],

    async load(initialRoute) {
      set({ phase: 'loading', loadError: null });
      const result = await settle(deps.api['app:info']({}));
      if (!result.ok) {
        set({ phase: 'failed', loadError: result.error.message });
        return;
      }
      const info = result.value;
      // A newcomer lands on the welcome; anyone else where they were (or on the list).
      const route: Route = info.firstLaunch ? { name: 'welcome' } : (initialRoute ?? { name: 'campaigns' });
      set({ phase: 'ready', info, route });
    },

    navigate(route) {
      set({ route });
    },

    async dismissWelcome() {
      const info = get().info;
      if (info) set({ info: { ...info, firstLaunch: false } });
      const result = await settle(deps.api['app:dismissWelcome']({}));
      if (!result.ok) get().notify('error', result.error.message);
    },

    setTheme(theme) {
      set({ theme });
    },

    setConnection(connection) {
      set({ connection });
    },

    notify(kind, text) {
      const notice = { id: nextNotice++, kind, text };
      set({ notices: [...get().notices.slice(-3), notice] });
    },

    dismissNotice(id) {
      set({ notices: get().notices.filter((n) => n.id !== id) });
    },
  }));
}
