// Errors cross the boundary as data (docs/architecture.md, "The contract"): every failure of a call
// becomes `{ code, message }` with a code from the contract. Known failures keep their message,
// which says what happened and what to do next; anything else becomes a generic message, with the
// details going to the log only. No message, logged or returned, ever carries an API key.
import { DISK_FULL_MESSAGE, isDiskFull, NetworkFolderError } from '../db/open.ts';
import { CsvLimitError } from '../../../shared/domain/csv/limits.ts';
import { z } from 'zod';
import type { ErrorCode } from '../../../shared/contract.ts';
import { MoneyError } from '../../../shared/domain/money.ts';
import { CampaignBusyError, CampaignNotSendableError } from '../campaigns/send-queue.ts';
import { FollowUpError } from '../campaigns/follow-up.ts';
import { ConfigurationError } from '../connections.ts';
import { IllegalSendStateError } from '../db/repos/campaigns.ts';
import { CampaignNotFoundError, ServiceError } from '../engine.ts';
import { ImportStoppedError } from './import-runner.ts';
import { WorkbookError } from '../workbook/limits.ts';

/** A failure a handler raises on purpose, with the contract's code for it. */
export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface CallError {
  code: ErrorCode;
  message: string;
}

export type AppLog = (level: 'info' | 'warn' | 'error', message: string) => void;

const SERVICE_CODES: Record<ServiceError['kind'], ErrorCode> = {
  auth: 'service-auth',
  unreachable: 'service-unreachable',
  rejected: 'service-rejected',
  'not-found': 'not-found',
  currency: 'invalid-input',
  account: 'account-changed',
};

/** The contract's error for anything a call threw; `call` names it in the generic message. */
export function classifyError(error: unknown, call: string): CallError & { expected: boolean } {
  if (error instanceof AppError) return { code: error.code, message: error.message, expected: true };
  if (error instanceof z.ZodError) {
    return { code: 'invalid-input', message: `The request for ${call} is not valid: ${z.prettifyError(error)}`, expected: true };
  }
  if (error instanceof CampaignNotFoundError || error instanceof CampaignNotSendableError) {
    return { code: 'not-found', message: error.message, expected: true };
  }
  if (error instanceof ConfigurationError) return { code: 'configuration', message: error.message, expected: true };
  if (error instanceof ServiceError) return { code: SERVICE_CODES[error.kind], message: error.message, expected: true };
  if (error instanceof CsvLimitError) return { code: 'invalid-input', message: error.message, expected: true };
  // A workbook that cannot be read, or whose sheet must be chosen (SheetChoiceNeeded lists them).
  if (error instanceof WorkbookError) return { code: 'invalid-input', message: error.message, expected: true };
  if (error instanceof NetworkFolderError) return { code: 'configuration', message: error.message, expected: true };
  if (isDiskFull(error)) return { code: 'configuration', message: DISK_FULL_MESSAGE, expected: true };
  if (error instanceof MoneyError) return { code: 'invalid-input', message: `The amount is not valid: ${error.message}.`, expected: true };
  if (error instanceof CampaignBusyError) return { code: 'conflict', message: error.message, expected: true };
  if (error instanceof FollowUpError) return { code: 'invalid-input', message: error.message, expected: true };
  // Its own words (nothing was stored, try again), and the worker's error in the log.
  if (error instanceof ImportStoppedError) return { code: 'internal', message: error.message, expected: false };
  if (error instanceof IllegalSendStateError) {
    return { code: 'conflict', message: `This campaign cannot do that in its current state (${error.message}).`, expected: true };
  }
  return {
    code: 'internal',
    message: `Something went wrong inside Giftbatch while handling ${call}. Nothing was sent by this request; the details are in the log. Try again, and report it if it keeps happening.`,
    expected: false,
  };
}

/**
 * Replaces every known secret in a text with a mask. Keys are registered as they are entered
 * (environments:setKey) or found (GIFTBATCH_API_KEY), so even a message that echoes one is clean.
 */
export interface Redactor {
  add(secret: string | null | undefined): void;
  redact(text: string): string;
}

export function createRedactor(): Redactor {
  const secrets = new Set<string>();
  return {
    add(secret) {
      const trimmed = secret?.trim();
      // Very short strings would mask ordinary words; real keys are long.
      if (trimmed && trimmed.length >= 6) secrets.add(trimmed);
    },
    redact(text) {
      let out = text;
      for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted key]');
      return out;
    },
  };
}

/** An error's stack, and its causes' (a few deep). */
export function errorText(error: unknown, depth = 0): string {
  if (!(error instanceof Error)) return String(error);
  const text = error.stack ?? `${error.name}: ${error.message}`;
  return error.cause === undefined || depth >= 4 ? text : `${text}\ncaused by: ${errorText(error.cause, depth + 1)}`;
}
