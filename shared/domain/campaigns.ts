// The words of a campaign's life, defined once: the repositories, the contract, the CLI and the
// screens derive from these lists.

export const ENVIRONMENTS = ['simulator', 'sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export function isEnvironment(value: string): value is Environment {
  return (ENVIRONMENTS as readonly string[]).includes(value);
}

/**
 * draft: imported, nothing sent. sending: the user asked to send; the queue works while the app runs.
 * paused: sending stopped, with a reason. done: every sendable row was sent: it is ordered (waiting for
 * delivery) or settled (rows.ts, SETTLED_STATES).
 */
export const SEND_STATES = ['draft', 'sending', 'paused', 'done'] as const;
export type SendState = (typeof SEND_STATES)[number];

/**
 * Why a campaign is paused: the user asked; the circuit breaker tripped; the app stopped mid-send;
 * a pre-flight check failed; the service refused the key; an answer of the service disagreed with
 * what a row asked (another amount, product, currency or recipient was issued); the service refused
 * several orders in a row with the same answer (no balance, product off sale: a refusal of all);
 * rows left mid-send whose lookup by key came back empty when that proves nothing (the order list is
 * not seen to reach back to their first send), so a person must look before they are sent again.
 */
export const PAUSE_REASONS = ['user', 'circuit-breaker', 'interrupted', 'preflight', 'auth', 'mismatch', 'refused', 'unconfirmed'] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

/** What a person does, having found no order at the service under an 'unconfirmed' row's key (the window's words; the CLI says its flag). */
export const RESEND_UNCONFIRMED_STEP = 'press Resume and choose "Send them again"';

/** What a person does, having found an 'unconfirmed' row's order at the service (the window's words; the CLI says its command). */
export function recordOrderStep(line: number): string {
  return `enter that order's number for line ${line} under "Rows to look up at the service"`;
}

/** recordOrderStep's words, to find them again (the CLI names its command instead). */
export const RECORD_ORDER_STEP_PATTERN = /enter that order's number for line (\d+) under "Rows to look up at the service"/g;
