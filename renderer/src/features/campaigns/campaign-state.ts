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
  unconfirmed: 'Paused: rows to check at the service',
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
      // Rows corrected (or failed ones put back) after it finished wait for a person's Send.
      const toSend = c.counts.ready + c.counts.sending;
      if (toSend > 0) return { label: `${toSend} to send`, tone: 'warn' };
      const waiting = awaitingDelivery(c);
      if (waiting > 0) return { label: `Sent, ${waiting} awaiting delivery`, tone: 'active' };
      // Every failed row taken by a follow-up campaign (sent from there), and no other problem: say so.
      const failedFollowedUp = c.counts.failed > 0 && c.retryable === 0 && c.counts.cancelled === 0 && c.acceptanceExpired === 0 && c.counts.invalid === 0;
      if (failedFollowedUp) return { label: `Finished, ${c.counts.failed} failed followed up`, tone: 'neutral' };
      if (c.counts.failed > 0 || c.counts.cancelled > 0 || c.acceptanceExpired > 0) return { label: 'Finished with problems', tone: 'warn' };
      // Rows never sent because they need fixing: not every gift is delivered.
      if (c.counts.invalid > 0) return { label: `Delivered, ${c.counts.invalid} not sent`, tone: 'warn' };
      return { label: 'Delivered', tone: 'ok' };
    }
  }
}

/**
 * The ordered rows still waiting for a delivery that can come: not those whose recipient link expired
 * unaccepted (acceptanceExpired, a part of the ordered rows), which wait on the recipient for ever.
 */
export function awaitingDelivery(c: CampaignSummary): number {
  return Math.max(0, c.counts.ordered - c.acceptanceExpired);
}

export function totalRows(c: CampaignSummary): number {
  return countRows(c.counts);
}

/** The rows meant to get a gift: every row but the skipped ones and those that still need fixing. */
export function giftRows(c: CampaignSummary): number {
  return totalRows(c) - c.counts.skipped - c.counts.invalid;
}

/** Of the gift rows, those the send is through with: all but the ones still to send (ready or sending). */
export function sentRows(c: CampaignSummary): number {
  return giftRows(c) - c.counts.ready - c.counts.sending;
}

/**
 * The progress card's words: delivered first, then what is ordered and only waiting for delivery, then
 * what is still to send. A campaign whose rows are all ordered reads as waiting, never as done.
 */
export function progressCaption(c: CampaignSummary): string {
  const k = c.counts;
  const gifts = giftRows(c);
  const toSend = k.ready + k.sending;
  const parts = [`${k.delivered} of ${gifts} delivered`];
  const waiting = awaitingDelivery(c);
  if (waiting > 0) parts.push(`${waiting} ordered, waiting for delivery`);
  if (k.ordered > waiting) parts.push(`${k.ordered - waiting} ordered, link expired unaccepted`);
  if (toSend > 0) parts.push(`${toSend} still to send`);
  return parts.join(' · ');
}
