// Polling that runs by itself (docs/architecture.md, "Polling": after a restart, polling resumes on
// its own; only sending waits for a person). One scheduler per service connection (environment +
// service address): while any of its campaigns has an undelivered order, a round runs at the
// engine's schedule (30–60 s after a send, backing off to 15 min). "Check now" runs a round at once
// and reschedules. Rounds of one target never overlap.
import type { PollRoundResult } from '../campaigns/poller.ts';
import type { PollTarget } from '../campaigns/poller.ts';
import { hasTrackedOrders } from '../db/repos/recipients.ts';
import type { Campaign } from '../db/repos/campaigns.ts';
import type { Engine } from '../engine.ts';
import { errorText, type AppLog } from './errors.ts';

export interface PollSchedulerOptions {
  engine: Engine;
  log: AppLog;
  /** Campaigns whose rows a round changed, with rows changed without a logged event. */
  onChanged: (campaignId: string, rowIds: number[]) => void;
  /** Adjusts every delay (tests use a fast schedule). Default: the engine's schedule as is. */
  delayMs?: (scheduledMs: number) => number;
  /** First round after start, so the screens show fresh statuses soon (default 2 s). */
  startDelayMs?: number;
  /** Wait before trying again when a round could not even start (no key, say). Default 5 min. */
  retryDelayMs?: number;
  /**
   * false: rounds run only when asked (checkNow, checkTarget), never by a timer (the CLI, which polls
   * in its own loop while it runs). Default true.
   */
  auto?: boolean;
}

export interface PollScheduler {
  /** Schedules every target that has undelivered orders (at service start). */
  resumeAll(): void;
  /** Makes sure the campaign's target is polled, by the schedule (after a send). */
  ensure(campaign: Campaign): void;
  /** Epoch ms of the next round for the campaign's target, or null when none is scheduled. */
  nextPollAt(campaign: Campaign): number | null;
  /** Runs a round for this campaign now (after any round in progress), then reschedules. */
  checkNow(campaign: Campaign): Promise<PollRoundResult>;
  /** Runs a round over every undelivered order of a service (every campaign of it), then reschedules. */
  checkTarget(target: PollTarget): Promise<PollRoundResult>;
  close(): Promise<void>;
}

interface TargetState {
  readonly target: PollTarget;
  timer: NodeJS.Timeout | null;
  nextAt: number | null;
  chain: Promise<unknown>;
  readonly controller: AbortController;
}

const targetKey = (c: { environment: string; baseUrl: string }) => `${c.environment} ${c.baseUrl}`;

export function createPollScheduler(options: PollSchedulerOptions): PollScheduler {
  const { engine, log } = options;
  const adjust = options.delayMs ?? ((ms: number) => ms);
  const auto = options.auto ?? true;
  const targets = new Map<string, TargetState>();
  let closed = false;

  const stateFor = (c: PollTarget): TargetState => {
    const key = targetKey(c);
    let state = targets.get(key);
    if (!state) {
      state = { target: { environment: c.environment, baseUrl: c.baseUrl }, timer: null, nextAt: null, chain: Promise.resolve(), controller: new AbortController() };
      targets.set(key, state);
    }
    return state;
  };

  const representative = (target: PollTarget): Campaign | undefined =>
    engine.campaigns().find((c) => c.environment === target.environment && c.baseUrl === target.baseUrl);

  const schedule = (state: TargetState, delayMs: number) => {
    if (closed || !auto) return;
    if (state.timer) clearTimeout(state.timer);
    const delay = Math.max(0, Math.round(adjust(delayMs)));
    state.nextAt = engine.clock.now() + delay;
    state.timer = setTimeout(() => {
      state.timer = null;
      void enqueue(state, undefined).catch(() => undefined);
    }, delay);
    state.timer.unref?.();
  };

  const round = async (state: TargetState, campaignId: string | undefined): Promise<PollRoundResult> => {
    const sample = representative(state.target);
    if (!sample) {
      state.nextAt = null;
      return { tracked: 0, requests: 0, settled: 0, delivered: 0, cancelled: 0, waiting: 0, expired: 0 };
    }
    let result: PollRoundResult;
    // The rows a round changed (committed), told once it ends, whether it ends well or not.
    const changed = new Map<string, number[]>();
    try {
      const connection = await engine.connectionFor(sample);
      result = await engine.poll(connection, campaignId, state.controller.signal, (changedCampaign, rowId) => {
        const list = changed.get(changedCampaign) ?? [];
        list.push(rowId);
        changed.set(changedCampaign, list);
      });
      if (result.error) log('warn', `Polling ${state.target.environment}: ${result.error}. The next round tries again.`);
      if (hasTrackedOrders(engine.db, state.target)) schedule(state, engine.nextPollDelay(connection));
      else {
        if (state.timer) clearTimeout(state.timer);
        state.timer = null;
        state.nextAt = null;
      }
      return result;
    } catch (error) {
      log('warn', `Polling ${state.target.environment} could not run: ${errorText(error)}`);
      schedule(state, options.retryDelayMs ?? 5 * 60_000);
      throw error;
    } finally {
      for (const [changedCampaign, rowIds] of changed) options.onChanged(changedCampaign, rowIds);
    }
  };

  const enqueue = (state: TargetState, campaignId: string | undefined): Promise<PollRoundResult> => {
    const next = state.chain.then(() => round(state, campaignId));
    state.chain = next.catch(() => undefined);
    return next;
  };

  return {
    resumeAll() {
      if (!auto) return;
      const seen = new Set<string>();
      for (const c of engine.campaigns()) {
        const key = targetKey(c);
        if (seen.has(key)) continue;
        if (!hasTrackedOrders(engine.db, { environment: c.environment, baseUrl: c.baseUrl })) continue;
        seen.add(key);
        schedule(stateFor(c), options.startDelayMs ?? 2_000);
      }
    },
    ensure(campaign) {
      if (!auto) return;
      const state = stateFor(campaign);
      if (state.timer) return;
      if (!hasTrackedOrders(engine.db, state.target)) return;
      void engine
        .connectionFor(campaign)
        .then((connection) => schedule(state, engine.nextPollDelay(connection)))
        .catch((error: unknown) => {
          log('warn', `Polling ${campaign.environment} could not be scheduled: ${errorText(error)}`);
          schedule(state, options.retryDelayMs ?? 5 * 60_000);
        });
    },
    nextPollAt(campaign) {
      const state = targets.get(targetKey(campaign));
      return state?.timer ? state.nextAt : null;
    },
    checkNow(campaign) {
      return enqueue(stateFor(campaign), campaign.id);
    },
    checkTarget(target) {
      return enqueue(stateFor(target), undefined);
    },
    async close() {
      closed = true;
      for (const state of targets.values()) {
        if (state.timer) clearTimeout(state.timer);
        state.timer = null;
        state.controller.abort();
      }
      await Promise.all([...targets.values()].map((s) => s.chain));
    },
  };
}
