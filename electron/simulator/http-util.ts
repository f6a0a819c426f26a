// Small HTTP helpers: bounded body reading, JSON replies, error bodies.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Dialect } from './types.ts';

export const MAX_BODY_BYTES = 1024 * 1024;
// Past this, stop draining an oversized body and drop the connection.
const MAX_DRAIN_BYTES = 64 * MAX_BODY_BYTES;

export interface Reply {
  status: number;
  body: unknown;
  headers?: Readonly<Record<string, string>>;
  /** When set, sent as text/plain instead of `body` as JSON. */
  text?: string;
}

/** An error in the dialect's shape; the test endpoints always use 'nested'. */
export function errorReply(err: ApiError, style: Dialect['errorBody'] = 'nested'): Reply {
  const base = { status: err.status, headers: err.headers };
  switch (style) {
    case 'flat':
      return { ...base, body: { code: err.code, message: err.message } };
    case 'text':
      // The code stays in the text: a client that only reads messages can still tell errors apart.
      return { ...base, body: null, text: `${err.code}: ${err.message}` };
    case 'nested':
      return { ...base, body: { error: { code: err.code, message: err.message } } };
  }
}

/**
 * Reads the whole body as UTF-8. An oversized body is drained (so the client can read our 413
 * instead of seeing a reset) and reported as null.
 */
export function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAIN_BYTES) {
        req.destroy();
        return;
      }
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('request aborted'));
    });
  });
}

/** Parses a JSON body or throws a 400 that says where it broke. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw new ApiError(400, 'BAD_REQUEST', 'the request body is empty; send a JSON object');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new ApiError(400, 'BAD_REQUEST', `the request body is not valid JSON (${detail})`);
  }
}

export function serialize(reply: Reply): string {
  return reply.text ?? JSON.stringify(reply.body);
}

export function writeReply(res: ServerResponse, reply: Reply, text: string = serialize(reply)): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(reply.status, {
    'content-type': reply.text === undefined ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...reply.headers,
  });
  res.end(text);
}

export function retryAfterHeader(seconds: number, format: 'seconds' | 'http-date', now: number): string {
  return format === 'http-date' ? new Date(now + seconds * 1000).toUTCString() : String(seconds);
}

/** Query integer: absent → undefined; present but not a non-negative integer → 400. */
export function queryInt(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  if (!/^\d{1,9}$/.test(raw.trim())) {
    throw new ApiError(400, 'BAD_REQUEST', `query parameter ${name}="${raw}" must be a non-negative integer`);
  }
  return Number(raw.trim());
}
