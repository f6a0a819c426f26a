// What the handlers share: the engine, the background runtime, and how this shell is set up.
import type { CampaignSummary, EventPayload } from '../../../shared/contract.ts';
import type { Engine } from '../engine.ts';
import type { Redactor } from './errors.ts';
import type { ImportRunner } from './import-runner.ts';
import type { PollScheduler } from './poll-scheduler.ts';
import type { ProgressBatcher } from './progress.ts';
import type { SendRuns } from './send-runs.ts';

export interface AppContext {
  readonly engine: Engine;
  /** Who called createAppService: the desktop app, the browser shell, or a giftbatch command. */
  readonly shell: 'desktop' | 'browser' | 'cli';
  readonly version: string;
  readonly sampleCsvPath: string;
  readonly processEnv: NodeJS.ProcessEnv;
  readonly redactor: Redactor;
  readonly runs: SendRuns;
  readonly pollers: PollScheduler;
  readonly progress: ProgressBatcher;
  /** Imports run off this thread, in the import worker. */
  readonly imports: ImportRunner;
  summary(campaignId: string): CampaignSummary;
  /** Emits the contract's `campaigns:createProgress` (a create the caller named with a progressId). */
  createProgress(payload: EventPayload<'campaigns:createProgress'>): void;
  /** Desktop: asks where to save the report and writes it; returns the path, or null when cancelled. */
  readonly saveReport?: ((fileName: string, csv: string) => Promise<string | null>) | undefined;
}
