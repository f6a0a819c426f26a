// The app as a whole: what the engine says about itself, the welcome on first launch, the screen
// shown, the event channel's state, the theme, and one-line notices.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CallOutput, CampaignSummary } from '../../../shared/contract.ts';
import { contractFingerprint } from '../../../shared/contract-fingerprint.ts';
import { differentBuildsMessage } from '../api/different-builds.ts';
import type { ConnectionState } from '../api/event-socket.ts';
import type { Route } from '../lib/route.ts';
import { settle, type StoreDeps } from './deps.ts';

export type AppInfo = CallOutput<'app:info'>;
export type ThemeChoice = 'system' | 'light' | 'dark';

export interface Notice {
  id: number;
  kind: 'info' | 'success' | 'error';
  text: string;
  /** The campaign it is about, named before the text (a notice shows wherever the person is). */
  campaign?: { id: string; name: string };
  /**
   * It announced this campaign's pause, whose detail then read so: the notice follows the pause
   * (reviseCampaignNotices) rather than keep advice that stopped being true.
   */
  pause?: { detail: string | null };
}

/** What a notice says and whom it is about (notify's input). */
export type NoticeText = Omit<Notice, 'id' | 'kind'>;

export interface AppState {
  phase: 'loading' | 'ready' | 'failed';
  loadError: string | null;
  /** The load failed because this window and the engine are from different builds (a restart mends it, not a retry). */
  differentBuilds: boolean;
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
  notify(kind: Notice['kind'], text: string | NoticeText): void;
  dismissNotice(id: number): void;
  /**
   * Brings the notices about these campaigns' pauses up to date: one whose campaign is no longer
   * paused goes (a run announces its own end); one whose pause now reads otherwise (a follow-up
   * campaign took its failed rows, a retry put them back) says what the pause says now.
   */
  reviseCampaignNotices(summaries: readonly CampaignSummary[]): void;
}

export type AppStore = StoreApi<AppState>;

/** A notice of good news fades this long after it appeared; an error stays until dismissed. */
export const NOTICE_FADE_MS = 10_000;

export function createAppStore(deps: StoreDeps, initialTheme: ThemeChoice = 'system'): AppStore {
  let nextNotice = 1;
  // One timer per notice, started when it appears: a newer notice does not restart an older one's
  // (the window's effect used to, so a notice stayed as long as others kept coming).
  const fades = new Map<number, unknown>();
  const forget = (gone: readonly Notice[]): void => {
    for (const n of gone) {
      const handle = fades.get(n.id);
      if (handle !== undefined) deps.timers.clearTimeout(handle);
      fades.delete(n.id);
    }
  };
  return createStore<AppState>()((set, get) => ({
    phase: 'loading',
    loadError: null,
    differentBuilds: false,
    info: null,
    route: { name: 'campaigns' },
    connection: deps.api.onConnectionChange ? 'connecting' : 'local',
    theme: initialTheme,
    notices: [],

    async load(initialRoute) {
      set({ phase: 'loading', loadError: null, differentBuilds: false });
      const failed = (error: { code: string; message: string }) =>
        set({ phase: 'failed', loadError: error.message, differentBuilds: error.code === 'contract-mismatch' });
      const result = await settle(deps.api['app:info']({}));
      if (!result.ok) return failed(result.error);
      const info = result.value;
      // An engine of another build may answer every call of the first screen and still misread or
      // be misread by the next: nothing is drawn from it.
      if (info.contract !== contractFingerprint()) return failed({ code: 'contract-mismatch', message: differentBuildsMessage(info.shell) });
      // A reload stays where the person was (the screen in the address bar), even one who left the
      // welcome by the header without dismissing it; a fresh open lands a newcomer on the welcome and
      // anyone else on the list. Someone whose data folder already holds campaigns (made with the
      // CLI, `giftbatch send`) is no newcomer: the list, though the welcome was never dismissed (it
      // stays at #/welcome). A list that cannot be read is the load's failure, not a newcomer.
      let newcomer = false;
      if (initialRoute === null && info.firstLaunch) {
        const list = await settle(deps.api['campaigns:list']({}));
        if (!list.ok) return failed(list.error);
        newcomer = list.value.campaigns.length === 0;
      }
      const route: Route = initialRoute ?? (newcomer ? { name: 'welcome' } : { name: 'campaigns' });
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
      const notice: Notice = { id: nextNotice++, kind, ...(typeof text === 'string' ? { text } : text) };
      // What a campaign's run came to replaces what its earlier run (or pause) came to: after the
      // corrected rows are sent, only the current "Sending is done" shows, not the first send's above it.
      const replaced = (n: Notice): boolean => notice.campaign !== undefined && n.campaign?.id === notice.campaign.id;
      const kept = get().notices.filter((n) => !replaced(n)).slice(-3);
      forget(get().notices.filter((n) => !kept.includes(n)));
      if (kind !== 'error') fades.set(notice.id, deps.timers.setTimeout(() => get().dismissNotice(notice.id), NOTICE_FADE_MS));
      set({ notices: [...kept, notice] });
    },

    reviseCampaignNotices(summaries) {
      const notices = get().notices;
      if (!notices.some((n) => n.pause)) return;
      const byId = new Map(summaries.map((s) => [s.id, s]));
      let changed = false;
      const next = notices.flatMap((n): Notice[] => {
        const now = n.pause && n.campaign ? byId.get(n.campaign.id) : undefined;
        if (!n.pause || !now) return [n];
        if (now.sendState !== 'paused') {
          changed = true;
          return [];
        }
        if (now.pausedDetail === n.pause.detail || now.pausedDetail === null) return [n];
        changed = true;
        return [{ ...n, text: now.pausedDetail, campaign: { id: now.id, name: now.name }, pause: { detail: now.pausedDetail } }];
      });
      if (!changed) return;
      forget(notices.filter((n) => !next.some((m) => m.id === n.id)));
      set({ notices: next });
    },

    dismissNotice(id) {
      forget(get().notices.filter((n) => n.id === id));
      set({ notices: get().notices.filter((n) => n.id !== id) });
    },
  }));
}
