// The renderer's Content-Security-Policy, one string for both shells: only our own scripts, no
// eval, no framing, no plugins; network only to our own origin (and, in the browser shell, its own
// event WebSocket). The desktop shell sets it on every response; the browser shell sends it as a header.

export function contentSecurityPolicy(extraConnect: readonly string[] = [], opts: { meta?: boolean } = {}): string {
  const directives = [
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
  ];
  // A <meta> policy cannot carry frame-ancestors (browsers ignore it there, with a warning).
  return (opts.meta ? directives.filter((d) => !d.startsWith('frame-ancestors')) : directives).join('; ');
}

/**
 * The policy the page itself carries (index.html's <meta>), for the desktop window when it loads the
 * file directly, and as a second line in the browser: the same definition as the header, plus the
 * browser shell's event WebSocket on this machine.
 */
export function documentPolicy(): string {
  return contentSecurityPolicy(['ws://127.0.0.1:*', 'ws://localhost:*'], { meta: true });
}

const PLACEHOLDER = '%GIFTBATCH_CSP%';

/** A Vite plugin (for both renderer builds) that writes documentPolicy() into index.html's <meta>. */
export function cspHtmlPlugin(): { name: string; transformIndexHtml(html: string): string } {
  return {
    name: 'giftbatch-csp',
    transformIndexHtml(html) {
      if (!html.includes(PLACEHOLDER)) throw new Error(`renderer/index.html has no ${PLACEHOLDER} for the Content-Security-Policy`);
      return html.replace(PLACEHOLDER, documentPolicy());
    },
  };
}
