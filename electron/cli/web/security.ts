// The browser shell's guards. The server listens on 127.0.0.1 only, but any web page the user
// opens can make the browser send requests there, and DNS rebinding can make such a page look
// same-origin. So: a random per-launch token on every API call and on the WebSocket, a Host header
// that must name our loopback address and port, and an Origin (when the browser sends one) that
// must be ours.
import { TOKEN_PROTOCOL_PREFIX } from '../../../shared/contract.ts';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { contentSecurityPolicy } from '../../core/app/csp.ts';

export const TOKEN_HEADER = 'x-giftbatch-token';
export { EVENTS_PROTOCOL } from '../../../shared/contract.ts';

/** The token a WebSocket upgrade offers among its subprotocols, or null. */
export function tokenFromProtocols(header: string | undefined): string | null {
  for (const offered of (header ?? '').split(',')) {
    const name = offered.trim();
    if (name.startsWith(TOKEN_PROTOCOL_PREFIX)) return name.slice(TOKEN_PROTOCOL_PREFIX.length);
  }
  return null;
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Host names a request may carry: our loopback address or localhost, with our port. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function hostAllowed(host: string | undefined, port: number): boolean {
  return host !== undefined && allowedHosts(port).includes(host.toLowerCase());
}

/** No Origin (a non-browser client, or a same-origin GET) is fine; the token still applies. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return allowedHosts(port).some((host) => origin.toLowerCase() === `http://${host}`);
}

export type Refusal = { status: 403; message: string } | null;

export function refusalFor(
  request: { host: string | undefined; origin: string | undefined; token: string | null | undefined },
  expected: { port: number; token: string; needsToken: boolean },
): Refusal {
  if (!hostAllowed(request.host, expected.port)) {
    return { status: 403, message: `Requests must be addressed to 127.0.0.1:${expected.port}; this one named "${request.host ?? ''}".` };
  }
  if (!originAllowed(request.origin, expected.port)) {
    return { status: 403, message: 'Requests from other web sites are refused. Open Giftbatch from the address `npm start` (or `npm run web`) printed.' };
  }
  if (expected.needsToken && !tokenMatches(expected.token, request.token)) {
    return { status: 403, message: 'This request has no valid access token. Open the address `npm start` (or `npm run web`) printed last (it holds a fresh token).' };
  }
  return null;
}

export function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(allowedHosts(port).map((host) => `ws://${host}`)),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}
