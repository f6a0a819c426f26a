// A campaign's state in words, shared by the list and the campaign screen.
import type { CampaignSummary } from '../../../../shared/contract.ts';
import type { PauseReason } from '../../../../shared/domain/campaigns.ts';
import { countRows } from '../../lib/rows.ts';

export interface StateView {
  label: string;
  tone: 'neutral' | 'active' | 'ok' | 'warn' | 'bad';
}

const PAUSE_LABELS: Readonly<Record<PauseReason, string>> = {
  user: 'Paused',
  'circuit-breaker': 'Paused: the service keeps failing',
  interrupted: 'Interrupted',
  preflight: 'Paused: pre-flight check failed',
  auth: 'Paused: the API key was refused',
  refused: 'Paused: the service refuses every order',
  mismatch: 'Paused: the service issued something else',
};

export function campaignState(c: CampaignSummary): StateView {
  switch (c.sendState) {
    case 'draft':
      return { label: 'Draft', tone: 'neutral' };
    case 'sending':
      return { label: c.running ? 'Sending' : 'Sending (waiting)', tone: 'active' };
    case 'paused':
      return { label: PAUSE_LABELS[c.pausedReason ?? 'user'], tone: c.pausedReason === 'user' ? 'neutral' : c.pausedReason === 'interrupted' ? 'warn' : 'bad' };
    case 'done': {
      const waiting = c.counts.ordered;
      if (waiting > 0) return { label: `Sent, ${waiting} awaiting delivery`, tone: 'active' };
      if (c.counts.failed > 0 || c.counts.cancelled > 0) return { label: 'Finished with problems', tone: 'warn' };
      return { label: 'Delivered', tone: 'ok' };
    }
  }
}

export function totalRows(c: CampaignSummary): number {
  return countRows(c.counts);
}

/** Rows that will not be sent again: delivered, ordered, failed, cancelled, skipped. */
export function settledRows(c: CampaignSummary): number {
  const k = c.counts;
  return k.ordered + k.delivered + k.failed + k.cancelled + k.skipped;
}
