// The renderer's Content-Security-Policy, one string for both shells: only our own scripts, no
// eval, no framing, no plugins; network only to our own origin (and, in the browser shell, its own
// event WebSocket). The desktop shell sets it on every response; the browser shell sends it as a header.

export function contentSecurityPolicy(extraConnect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // React sets style attributes; no inline scripts are allowed.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${["'self'", ...extraConnect].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
