// Sending in the background: `campaigns:send` starts the send queue for a campaign and returns at
// once; progress goes out as batched events, `campaign:finished` when the run ends. One run per
// campaign at a time. Pause aborts the run's signal: the queue stops taking rows, records the
// POSTs in flight and pauses the campaign itself. Closing the service does the same, then marks
// those campaigns 'interrupted', so after a restart they say so and wait for a person's Resume.
import { hostname } from 'node:os';
import { z } from 'zod';
import { CampaignBusyError, type SendQueue, type SendResult } from '../campaigns/send-queue.ts';
import type { Connection } from '../connections.ts';
import type { Db } from '../db/open.ts';
import { appendEvent } from '../db/repos/events.ts';
import { setSendState } from '../db/repos/campaigns.ts';
import { countByState } from '../db/repos/recipients.ts';
import { statement } from '../db/statements.ts';
import { checkedSend, type CheckedSendOptions, type Engine, type QueueTuning as EngineQueueTuning } from '../engine.ts';
import { AppError, errorText, type AppLog } from './errors.ts';

export type QueueTuning = Omit<EngineQueueTuning, 'log'>;

export interface LookedUp {
  checked: number;
  ordered: number;
}

export interface SendRunsOptions {
  engine: Engine;
  log: AppLog;
  /** Something changed in the campaign (batched by the caller). */
  onProgress: (campaignId: string) => void;
  /**
   * The run ended: done, paused, or stopped on an error; `message` says which, for the user;
   * `lookedUp`: the rows left `sending` that it looked up by key (first, and again when it paused
   * with the service reachable: SendResult.lookedUpOnPause), each counted once, and how many were ordered.
   */
  onFinished: (campaignId: string, message: string, lookedUp: LookedUp | null) => void;
  queue?: QueueTuning;
  /** How long `pause` waits for the POSTs in flight before it answers anyway (default 5 s). */
  pauseWaitMs?: number;
  /** How long `pause` waits for another process to stop a campaign it sends (default 8 s). */
  remotePauseWaitMs?: number;
}

export interface SendRuns {
  /**
   * Starts (or resumes) sending behind the pre-flight (`checked`: one that ran a moment ago); resolves
   * once the run has begun. A failed pre-flight sends nothing and only looks up the rows in `sending`.
   */
  start(campaignId: string, gate?: Pick<CheckedSendOptions, 'checked' | 'confirmedTotals' | 'sameAccount' | 'allowRepeats' | 'lookUpOnly' | 'resendUnconfirmed'>): Promise<void>;
  /** Asks the run to stop and waits a little for it. */
  pause(campaignId: string): Promise<void>;
  isRunning(campaignId: string): boolean;
  /** Stops every run, waits for them, and marks their campaigns interrupted. */
  close(): Promise<void>;
}

/** The rows a run looked up by key, at its start and when it paused (a row looked up at both counts once). */
function lookedUpIn(result: SendResult): LookedUp {
  const lookups = [result.reconciliation, result.lookedUpOnPause].filter((r) => r !== null);
  return {
    checked: new Set(lookups.flatMap((r) => r.rows.map((row) => row.rowId))).size,
    ordered: lookups.reduce((n, r) => n + r.ordered, 0),
  };
}

interface Run {
  readonly controller: AbortController;
  /** Resolves when the run has ended (or failed to start), never rejects. */
  readonly ended: Promise<void>;
}

const INTERRUPTED_DETAIL = 'Giftbatch was closed while this campaign was sending.';

export function createSendRuns(options: SendRunsOptions): SendRuns {
  const { engine, log } = options;
  const runs = new Map<string, Run>();
  let closing = false;

  const queueFor = (connection: Connection): SendQueue =>
    engine.queueFor(connection, {
      ...options.queue,
      log: (entry) => log(entry.level, `campaign ${entry.campaignId}${entry.rowId !== undefined ? ` row ${entry.rowId}` : ''}: ${entry.message}`),
    });

  return {
    async start(campaignId, gate = {}) {
      if (closing) throw new AppError('conflict', 'Giftbatch is shutting down; nothing new is sent. Start it again to resume.');
      if (runs.has(campaignId)) return;
      const campaign = engine.campaign(campaignId);
      const counts = countByState(engine.db, campaignId);
      if (counts.ready + counts.sending === 0) {
        throw new AppError(
          'conflict',
          `Nothing to send in "${campaign.name}": no row is ready. Fix invalid rows, take skipped rows back, or retry failed rows first.`,
        );
      }
      // Registered before the first await: a second `send` for the same campaign joins this run.
      const controller = new AbortController();
      let markEnded!: () => void;
      runs.set(campaignId, { controller, ended: new Promise<void>((resolve) => (markEnded = resolve)) });
      let connection: Connection;
      try {
        connection = await engine.connectionFor(campaign);
      } catch (error) {
        runs.delete(campaignId);
        markEnded();
        throw error;
      }
      // With a pre-flight that just passed, run() marks the campaign sending before its first await,
      // so the answer to `send` shows it.
      const running = checkedSend(engine, connection, queueFor(connection), campaignId, {
        ...gate,
        signal: controller.signal,
        onProgress: () => options.onProgress(campaignId),
      });
      void running
        .then(
          (result) => {
            runs.delete(campaignId);
            options.onProgress(campaignId);
            options.onFinished(campaignId, result.message, lookedUpIn(result));
          },
          (error: unknown) => {
            runs.delete(campaignId);
            options.onProgress(campaignId);
            // Another process holds the campaign's send lease: nothing was done here, and its words say so.
            if (error instanceof CampaignBusyError) {
              options.onFinished(campaignId, error.message, null);
              return;
            }
            log('error', `Sending campaign ${campaignId} stopped on an error: ${errorText(error)}`);
            options.onFinished(campaignId, 'Sending stopped on an internal error; nothing is lost. Press Resume to carry on; the details are in the log.', null);
          },
        )
        .finally(markEnded);
    },

    async pause(campaignId) {
      const run = runs.get(campaignId);
      if (run) {
        run.controller.abort();
        await Promise.race([run.ended, delay(options.pauseWaitMs ?? 5_000)]);
        return;
      }
      const campaign = engine.campaign(campaignId);
      if (campaign.sendState !== 'sending') return;
      // Another process sends it (a giftbatch command, another window): ask it, and wait a little.
      const asked = engine.askToPause(campaignId);
      if (asked) {
        const until = Date.now() + (options.remotePauseWaitMs ?? 8_000);
        while (engine.campaign(campaignId).sendState === 'sending' && Date.now() < until) await delay(200);
        if (engine.campaign(campaignId).sendState === 'sending') {
          throw new AppError(
            'conflict',
            `"${campaign.name}" is being sent by another Giftbatch (process ${asked.pid}${asked.host === hostname() ? '' : ` on ${asked.host}`}). ` +
              'It was asked to pause and has not stopped yet; if it is a giftbatch command, press Ctrl-C in its terminal.',
          );
        }
        return;
      }
      // Marked sending but not running anywhere (a run of another process that died while we were open).
      setSendState(engine.db, campaignId, { from: 'sending', to: 'paused', reason: 'user', detail: 'Sending was paused. Press Resume to send the rest.' }, engine.clock.now());
    },

    isRunning: (campaignId) => runs.has(campaignId),

    async close() {
      closing = true;
      const stopped = [...runs.entries()];
      for (const [, run] of stopped) run.controller.abort();
      await Promise.race([Promise.all(stopped.map(([, run]) => run.ended)), delay(15_000)]);
      for (const [campaignId] of stopped) markInterrupted(engine.db, campaignId, engine.clock.now());
    },
  };
}

/**
 * A run this process stopped on its way out paused itself as if the user had asked; say instead
 * that Giftbatch stopped, so the next start shows it as interrupted (with what is left) and does not
 * send until Resume. Plain SQL because the campaigns repo has no paused → paused move.
 */
export function markInterrupted(db: Db, campaignId: string, now: number, detail = INTERRUPTED_DETAIL): boolean {
  return db.transaction(() => {
    const changed = statement(
      db,
      `UPDATE campaigns SET paused_reason = 'interrupted', paused_detail = ?, updated_at = ?
        WHERE id = ? AND send_state = 'paused' AND paused_reason = 'user' RETURNING id`,
    ).get(detail, now, campaignId);
    if (z.object({ id: z.string() }).optional().parse(changed) === undefined) return false;
    appendEvent(db, { campaignId, kind: 'paused', detail: { reason: 'interrupted', message: detail } }, now);
    return true;
  }).immediate();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });
}
