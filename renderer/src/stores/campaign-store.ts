// The campaign on screen: its summary, a window of its rows (fetched by page as the table scrolls,
// refreshed only where progress events say rows changed), its timeline, and its actions.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CallOutput, CampaignSummary, Result, RowDto } from '../../../shared/contract.ts';
import type { FollowUpKind } from '../../../shared/domain/follow-up.ts';
import { plural } from '../../../shared/domain/plural.ts';
import { settledText } from '../../../shared/domain/poll-words.ts';
import { bucketFor, type Bucket } from '../lib/chart.ts';
import { countRows, type RowState } from '../lib/rows.ts';
import { pagesCovering } from '../lib/windowing.ts';
import { refusalOf, resumeFlags, type ResumeChoices, type ResumeRefusal } from './campaigns-store.ts';
import { settle, type StoreDeps, type UiError } from './deps.ts';

export const PAGE_SIZE = 200;
/** Pages kept around the visible ones; further ones are dropped and fetched again when needed. */
const KEEP_PAGES_AROUND = 10;
const TIMELINE_EVERY_MS = 2000;
/** The held rows the panel lists at once; the others follow as these are recorded (it says how many more). */
export const HELD_SHOWN = 100;

export interface RowFilter {
  /** null: every state. */
  states: RowState[] | null;
  search: string;
}

export type ReportFile = CallOutput<'campaigns:report'>;

export interface CampaignMessage {
  kind: 'info' | 'success' | 'error';
  text: string;
  /** Why a resume did not start, when a person's confirmation would do (see ResumeRefusal). */
  refusal?: ResumeRefusal;
}

export interface CampaignState {
  id: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  error: UiError | null;
  summary: CampaignSummary | null;
  filter: RowFilter;
  /** Rows matching the filter. */
  total: number;
  rowsByIndex: ReadonlyMap<number, RowDto>;
  rowsError: string | null;
  timeline: Bucket[];
  busy: null | 'pause' | 'resume' | 'retry' | 'revalidate' | 'check' | 'report' | 'followUp' | 'record';
  message: CampaignMessage | null;
  /** Rows left mid-send and held for a person (their lookup by key proves nothing): the first HELD_SHOWN, loaded by loadHeld. */
  held: RowDto[];
  /** How many rows are held in all (campaigns:rows' total under its `held` filter): more than `held` when there are over HELD_SHOWN. */
  heldTotal: number;
  open(id: string): Promise<void>;
  close(): void;
  setFilter(filter: Partial<RowFilter>): void;
  setRange(start: number, end: number): void;
  applyProgress(summary: CampaignSummary, changedRowIds: readonly number[]): void;
  refresh(): Promise<void>;
  loadTimeline(): Promise<void>;
  pause(): Promise<void>;
  resume(opts?: ResumeChoices): Promise<boolean>;
  /** Every failed row back to send (keys kept); sending them takes a Resume. */
  retryFailed(): Promise<void>;
  /** The unsent rows checked again against the product as it is now, keys kept. */
  revalidate(): Promise<void>;
  checkNow(): Promise<void>;
  exportReport(): Promise<ReportFile | null>;
  /** A new draft campaign from this one's rows of those kinds (new keys: new gifts); the draft's summary, or null (the message says why). */
  followUp(include: readonly FollowUpKind[], name?: string): Promise<CampaignSummary | null>;
  clearMessage(): void;
  /** The rows held for a person: the first HELD_SHOWN, and how many there are. */
  loadHeld(): Promise<void>;
  /** A held row's order, found by the person in the service's records, recorded by its id; false when refused (the message says why). */
  recordOrder(rowId: number, orderId: number): Promise<boolean>;
}

export type CampaignStore = StoreApi<CampaignState>;

interface PageEntry {
  status: 'loading' | 'loaded';
  ids: number[];
  /** Rows on it changed while it was loading: fetch it again when the answer lands. */
  dirty: boolean;
}

export function filterIsActive(filter: RowFilter): boolean {
  return filter.states !== null || filter.search.trim() !== '';
}

export function createCampaignStore(deps: StoreDeps): CampaignStore {
  let generation = 0;
  let pages = new Map<number, PageEntry>();
  let range = { start: 0, end: 0 };
  let lastTimelineAt = Number.NEGATIVE_INFINITY;
  let timelineTimer: unknown = null;

  return createStore<CampaignState>()((set, get) => {
    const rowsQuery = (): { states?: RowState[]; search?: string } => {
      const { states, search } = get().filter;
      return {
        ...(states ? { states } : {}),
        ...(search.trim() !== '' ? { search: search.trim() } : {}),
      };
    };

    const fetchPage = async (page: number): Promise<void> => {
      const id = get().id;
      if (id === null) return;
      const gen = generation;
      const previous = pages.get(page);
      pages.set(page, { status: 'loading', ids: previous?.ids ?? [], dirty: false });
      const result = await settle(deps.api['campaigns:rows']({ campaignId: id, offset: page * PAGE_SIZE, limit: PAGE_SIZE, ...rowsQuery() }));
      if (gen !== generation) return;
      const entry = pages.get(page);
      if (!result.ok) {
        pages.delete(page);
        set({ rowsError: result.error.message });
        return;
      }
      const { rows, total } = result.value;
      const next = new Map(get().rowsByIndex);
      const base = page * PAGE_SIZE;
      for (let i = base; i < base + PAGE_SIZE; i++) next.delete(i);
      rows.forEach((row, k) => next.set(base + k, row));
      for (const index of next.keys()) if (index >= total) next.delete(index);
      pages.set(page, { status: 'loaded', ids: rows.map((r) => r.id), dirty: false });
      set({ rowsByIndex: next, total, rowsError: null });
      if (entry?.dirty) void fetchPage(page);
    };

    const visiblePages = (): number[] => pagesCovering(range.start, Math.max(range.end, range.start + 1), PAGE_SIZE);

    const evictFarPages = (): void => {
      const visible = visiblePages();
      const lo = (visible[0] ?? 0) - KEEP_PAGES_AROUND;
      const hi = (visible[visible.length - 1] ?? 0) + KEEP_PAGES_AROUND;
      let evicted = false;
      const next = new Map(get().rowsByIndex);
      for (const [page, entry] of pages) {
        if (page >= lo && page <= hi || entry.status === 'loading') continue;
        pages.delete(page);
        for (let i = page * PAGE_SIZE; i < (page + 1) * PAGE_SIZE; i++) next.delete(i);
        evicted = true;
      }
      if (evicted) set({ rowsByIndex: next });
    };

    const resetRows = (): void => {
      generation++;
      pages = new Map();
      set({ rowsByIndex: new Map(), rowsError: null });
    };

    const loadVisible = (): void => {
      for (const page of visiblePages()) {
        if (!pages.has(page)) void fetchPage(page);
      }
    };

    const setSummary = (summary: CampaignSummary): void => {
      if (summary.id === get().id) set({ summary });
    };
    // A call that changes many rows at once: busy while it runs, then the campaign, a message, the rows again.
    const changeRows = async <T extends { campaign: CampaignSummary }>(
      busy: 'retry' | 'revalidate',
      call: (campaignId: string) => Promise<Result<T>>,
      say: (value: T) => CampaignMessage,
    ): Promise<void> => {
      const id = get().id;
      if (id === null) return;
      set({ busy, message: null });
      const result = await settle(call(id));
      if (!result.ok) {
        set({ busy: null, message: { kind: 'error', text: result.error.message } });
        return;
      }
      setSummary(result.value.campaign);
      set({ busy: null, message: say(result.value) });
      void get().refresh();
    };

    return {
      id: null,
      status: 'idle',
      error: null,
      summary: null,
      filter: { states: null, search: '' },
      total: 0,
      rowsByIndex: new Map(),
      rowsError: null,
      timeline: [],
      busy: null,
      held: [],
      heldTotal: 0,
      message: null,

      async open(id) {
        if (get().id === id && get().status === 'ready') {
          void get().refresh();
          return;
        }
        resetRows();
        range = { start: 0, end: 0 };
        lastTimelineAt = Number.NEGATIVE_INFINITY;
        set({ id, status: 'loading', error: null, summary: null, total: 0, timeline: [], message: null, busy: null, held: [], heldTotal: 0, filter: { states: null, search: '' } });
        const result = await settle(deps.api['campaigns:get']({ campaignId: id }));
        if (get().id !== id) return;
        if (!result.ok) {
          set({ status: 'failed', error: result.error });
          return;
        }
        set({ status: 'ready', summary: result.value, total: countRows(result.value.counts) });
        loadVisible();
        void get().loadTimeline();
      },

      close() {
        if (timelineTimer !== null) deps.timers.clearTimeout(timelineTimer);
        timelineTimer = null;
        resetRows();
        set({ id: null, status: 'idle', summary: null, total: 0, timeline: [], message: null, held: [], heldTotal: 0 });
      },

      setFilter(filter) {
        set({ filter: { ...get().filter, ...filter } });
        resetRows();
        loadVisible();
      },

      setRange(start, end) {
        range = { start, end };
        loadVisible();
        evictFarPages();
      },

      applyProgress(summary, changedRowIds) {
        if (summary.id !== get().id) return;
        set({ summary });
        if (changedRowIds.length > 0) {
          const changed = new Set(changedRowIds);
          // With a filter, a changed row can move in or out of the list: every page may shift.
          const all = filterIsActive(get().filter);
          const visible = new Set(visiblePages());
          for (const [page, entry] of [...pages]) {
            if (!all && !entry.ids.some((rowId) => changed.has(rowId))) continue;
            if (entry.status === 'loading') entry.dirty = true;
            else if (visible.has(page)) void fetchPage(page);
            else pages.delete(page);
          }
          if (all) loadVisible();
        }
        // Throttled, with a trailing refresh so the last burst of a send is drawn too.
        const wait = lastTimelineAt + TIMELINE_EVERY_MS - deps.now();
        if (wait <= 0) void get().loadTimeline();
        else if (timelineTimer === null) {
          timelineTimer = deps.timers.setTimeout(() => {
            timelineTimer = null;
            void get().loadTimeline();
          }, wait);
        }
      },

      async refresh() {
        const id = get().id;
        if (id === null) return;
        const result = await settle(deps.api['campaigns:get']({ campaignId: id }));
        if (result.ok) setSummary(result.value);
        for (const page of visiblePages()) {
          const entry = pages.get(page);
          if (entry?.status === 'loading') entry.dirty = true;
          else void fetchPage(page);
        }
        void get().loadTimeline();
      },

      async loadTimeline() {
        const id = get().id;
        const summary = get().summary;
        if (id === null || summary === null) return;
        lastTimelineAt = deps.now();
        const bucketMs = bucketFor(deps.now() - summary.createdAt);
        const result = await settle(deps.api['campaigns:timeline']({ campaignId: id, bucketMs }));
        if (get().id !== id || !result.ok) return;
        set({ timeline: result.value.buckets });
      },

      async pause() {
        const id = get().id;
        if (id === null) return;
        set({ busy: 'pause', message: null });
        const result = await settle(deps.api['campaigns:pause']({ campaignId: id }));
        if (!result.ok) {
          set({ busy: null, message: { kind: 'error', text: result.error.message } });
          return;
        }
        setSummary(result.value);
        set({ busy: null, message: { kind: 'info', text: 'Paused. Orders already placed are still tracked; nothing new is sent until you resume.' } });
      },

      async resume(opts = {}) {
        const id = get().id;
        if (id === null) return false;
        set({ busy: 'resume', message: null });
        // The totals the resume dialog showed: the engine sends nothing if the rows add up to more by now.
        const totals = get().summary?.remaining;
        const result = await settle(
          deps.api['campaigns:send']({ campaignId: id, confirmed: true, ...(totals ? { totals } : {}), ...resumeFlags(opts) }),
        );
        if (!result.ok) {
          set({ busy: null, message: { kind: 'error', text: result.error.message, refusal: refusalOf(result.error) } });
          return false;
        }
        setSummary(result.value);
        set({ busy: null });
        return true;
      },

      async loadHeld() {
        const id = get().id;
        if (id === null) return;
        const result = await settle(deps.api['campaigns:rows']({ campaignId: id, held: true, offset: 0, limit: HELD_SHOWN }));
        if (get().id !== id || !result.ok) return;
        set({ held: result.value.rows, heldTotal: result.value.total });
      },

      async recordOrder(rowId, orderId) {
        set({ busy: 'record', message: null });
        const result = await settle(deps.api['rows:recordOrder']({ rowId, orderId }));
        if (!result.ok) {
          set({ busy: null, message: { kind: 'error', text: result.error.message } });
          return false;
        }
        const r = result.value;
        const charged = r.charged ? `, charged ${r.charged.currency} ${r.charged.amount}` : '';
        const flagged = r.findings.length > 0 ? ` It is flagged: ${r.findings.map((f) => f.message).join('; ')}.` : '';
        set({ busy: null, message: { kind: r.findings.length > 0 ? 'error' : 'success', text: `Line ${r.line}: order ${orderId} recorded as its order${charged}.${flagged}` } });
        await get().refresh();
        await get().loadHeld();
        return true;
      },

      retryFailed: () =>
        changeRows('retry', (campaignId) => deps.api['campaigns:retryFailed']({ campaignId }), ({ requeued: n }) => ({
          kind: 'info',
          text: `${plural(n, 'failed row')} ${n === 1 ? 'is' : 'are'} back to send, each under its own reference: an order already made under one would be returned, not charged again. Press Resume to send ${n === 1 ? 'it' : 'them'}.`,
        })),

      revalidate: () =>
        changeRows('revalidate', (campaignId) => deps.api['campaigns:revalidate']({ campaignId }), ({ checked, ready, invalid }) => ({
          kind: invalid > 0 ? 'error' : 'info',
          text: `${plural(checked, 'unsent row')} checked against the product as it is now: ${ready} ready, ${invalid} to fix. Each kept its reference, so nothing already ordered is ordered again.`,
        })),

      async checkNow() {
        const id = get().id;
        if (id === null) return;
        set({ busy: 'check', message: null });
        const result = await settle(deps.api['campaigns:checkNow']({ campaignId: id }));
        if (!result.ok) {
          set({ busy: null, message: { kind: 'error', text: result.error.message } });
          return;
        }
        const r = result.value;
        set({ busy: null, message: { kind: r.error ? 'error' : 'info', text: checkNowText(r) } });
        await get().refresh();
      },

      async exportReport() {
        const id = get().id;
        if (id === null) return null;
        set({ busy: 'report', message: null });
        const result = await settle(deps.api['campaigns:report']({ campaignId: id }));
        if (!result.ok) {
          set({ busy: null, message: { kind: 'error', text: result.error.message } });
          return null;
        }
        const { savedTo, fileName } = result.value;
        set({ busy: null, message: { kind: 'success', text: savedTo ? `Report saved to ${savedTo}` : `Report downloaded as ${fileName}` } });
        return result.value;
      },

      async followUp(include, name) {
        const id = get().id;
        if (id === null) return null;
        set({ busy: 'followUp', message: null });
        const result = await settle(deps.api['campaigns:followUp']({ campaignId: id, include: [...include], ...(name?.trim() ? { name: name.trim() } : {}) }));
        if (!result.ok) {
          set({ busy: null, message: { kind: 'error', text: result.error.message } });
          return null;
        }
        // This campaign as it is now: the rows the follow-up took change what its pause says (and its counts).
        const now = await settle(deps.api['campaigns:get']({ campaignId: id }));
        if (now.ok) setSummary(now.value);
        set({ busy: null });
        return result.value;
      },

      clearMessage() {
        set({ message: null });
      },
    };
  });
}

/** The campaign chooses a gift per row (as its review did): the rows table names each row's gift. */
export const giftPerRow = (state: { summary: CampaignSummary | null }): boolean => state.summary?.giftPerRow === true;

/**
 * What "Check now" found, in the organiser's words: the gifts that were waiting and are now delivered,
 * those now cancelled, and those still waiting (the CLI's poll line says the same: settledText).
 */
export function checkNowText(r: CallOutput<'campaigns:checkNow'>): string {
  if (r.error) return `Check failed: ${r.error}`;
  return (
    `Checked with the service: ${settledText(r)} since the last check, ${r.waiting} still waiting` +
    // Those whose recipient link expired wait on no delivery that can come: said apart, as the CLI's line does.
    (r.expired > 0 ? ` (${r.expired} with an expired link).` : '.')
  );
}
