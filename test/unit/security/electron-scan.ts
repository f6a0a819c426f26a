// A focused static scan of the Electron shell, standing in for Electronegativity (which cannot run
// here: it is not installed, its pinned TypeScript 4.2 parser cannot read this code base's
// TypeScript 5 syntax, and some of its checks fetch Electron release data from the network).
// It looks for the same high-risk patterns, in the files that can hold them.
export type Severity = 'HIGH' | 'MEDIUM';

export interface Finding {
  readonly check: string;
  readonly severity: Severity;
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

export interface SourceFile {
  readonly file: string;
  readonly text: string;
}

interface LineCheck {
  readonly check: string;
  readonly severity: Severity;
  readonly pattern: RegExp;
}

const LINE_CHECKS: readonly LineCheck[] = [
  { check: 'NODE_INTEGRATION_ENABLED', severity: 'HIGH', pattern: /\bnodeIntegration(InWorker|InSubFrames)?\s*:\s*true\b/ },
  { check: 'CONTEXT_ISOLATION_DISABLED', severity: 'HIGH', pattern: /\bcontextIsolation\s*:\s*false\b/ },
  { check: 'SANDBOX_DISABLED', severity: 'HIGH', pattern: /\bsandbox\s*:\s*false\b/ },
  { check: 'WEB_SECURITY_DISABLED', severity: 'HIGH', pattern: /\bwebSecurity\s*:\s*false\b/ },
  { check: 'INSECURE_CONTENT_ALLOWED', severity: 'HIGH', pattern: /\ballowRunningInsecureContent\s*:\s*true\b/ },
  { check: 'EXPERIMENTAL_FEATURES', severity: 'HIGH', pattern: /\b(experimentalFeatures\s*:\s*true|enableBlinkFeatures\s*:)/ },
  { check: 'WEBVIEW_TAG_ENABLED', severity: 'HIGH', pattern: /\bwebviewTag\s*:\s*true\b/ },
  { check: 'REMOTE_MODULE', severity: 'HIGH', pattern: /@electron\/remote|\benableRemoteModule\b|\.remote\b\s*\./ },
  { check: 'EXECUTE_JAVASCRIPT', severity: 'HIGH', pattern: /\.executeJavaScript(InIsolatedWorld)?\s*\(/ },
  { check: 'CERTIFICATE_ERRORS_IGNORED', severity: 'HIGH', pattern: /ignore-certificate-errors|['"]certificate-error['"]|setCertificateVerifyProc/ },
  { check: 'INSECURE_LOAD_URL', severity: 'HIGH', pattern: /\.loadURL\s*\(\s*['"`]http:/ },
  { check: 'CSP_UNSAFE_EVAL', severity: 'HIGH', pattern: /unsafe-eval/ },
  { check: 'PRELOAD_SYNC_IPC', severity: 'MEDIUM', pattern: /ipcRenderer\.(sendSync|send)\s*\(/ },
  { check: 'IPC_ON_WITHOUT_REPLY_GUARD', severity: 'HIGH', pattern: /ipcMain\.on\s*\(/ },
];

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

function matchesEach(file: SourceFile, pattern: RegExp): { index: number; line: number; text: string }[] {
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  return [...file.text.matchAll(global)].map((m) => {
    const line = lineOf(file.text, m.index);
    return { index: m.index, line, text: file.text.split('\n')[line - 1]?.trim() ?? '' };
  });
}

/** The text that follows `index`, up to the bracket that closes the call opened there. */
function callText(text: string, index: number): string {
  const open = text.indexOf('(', index);
  if (open < 0) return '';
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

export function scanElectronSources(files: readonly SourceFile[]): Finding[] {
  const findings: Finding[] = [];
  const add = (check: string, severity: Severity, file: string, line: number, text: string) => findings.push({ check, severity, file, line, text });
  for (const file of files) {
    const code = file.text.replace(/^\s*\/\/.*$/gm, (comment) => ' '.repeat(comment.length));
    const source = { file: file.file, text: code };
    for (const c of LINE_CHECKS) for (const m of matchesEach(source, c.pattern)) add(c.check, c.severity, file.file, m.line, m.text);

    // Every window gets the pinned secure preferences, and guards its navigation and new windows.
    for (const m of matchesEach(source, /new BrowserWindow\s*\(/)) {
      const call = callText(code, m.index);
      // Written out, so this scan and Electronegativity read them (window.test.ts pins every value).
      const secure = [/contextIsolation\s*:\s*true/, /sandbox\s*:\s*true/, /nodeIntegration\s*:\s*false/, /webSecurity\s*:\s*true/, /disableBlinkFeatures\s*:\s*'Auxclick'/];
      if (!secure.every((p) => p.test(call))) add('WINDOW_WITHOUT_SECURE_PREFERENCES', 'HIGH', file.file, m.line, m.text);
      if (!/setWindowOpenHandler\s*\(/.test(code)) add('MISSING_WINDOW_OPEN_HANDLER', 'HIGH', file.file, m.line, m.text);
      if (!/['"]will-navigate['"]/.test(code)) add('MISSING_NAVIGATION_GUARD', 'HIGH', file.file, m.line, m.text);
      if (!/['"]will-attach-webview['"]/.test(code)) add('MISSING_WEBVIEW_GUARD', 'MEDIUM', file.file, m.line, m.text);
    }
    // Links leave the app only through the allowlist.
    for (const m of matchesEach(source, /shell\.openExternal\s*\(/)) {
      const context = code.split('\n').slice(Math.max(0, m.line - 3), m.line).join('\n');
      if (!/isAllowedExternal|openExternally|EXTERNAL_LINK_ALLOWLIST/.test(context)) add('OPEN_EXTERNAL_WITHOUT_ALLOWLIST', 'HIGH', file.file, m.line, m.text);
    }
    // Every IPC handler is wrapped by the sender guard.
    for (const m of matchesEach(source, /ipcMain\.(handle|handleOnce)\s*\(/)) {
      const context = code.split('\n').slice(Math.max(0, m.line - 4), m.line).join('\n');
      if (!/guardedHandler\s*\(/.test(context)) add('IPC_HANDLER_WITHOUT_SENDER_GUARD', 'HIGH', file.file, m.line, m.text);
    }
    // The preload hands the page named calls only: never ipcRenderer itself, never a generic invoke.
    for (const m of matchesEach(source, /exposeInMainWorld\s*\(/)) {
      const call = callText(code, m.index);
      if (/\bipcRenderer\b/.test(call)) add('PRELOAD_EXPOSES_IPC_RENDERER', 'HIGH', file.file, m.line, m.text);
      if (/\b(invoke|send)\s*[:(]/.test(call)) add('PRELOAD_EXPOSES_GENERIC_INVOKE', 'HIGH', file.file, m.line, m.text);
    }
    for (const m of matchesEach(source, /ipcRenderer\.invoke\s*\(\s*(channel|name|event)\b/)) {
      if (!/CALL_NAMES\.map\s*\(/.test(code)) add('PRELOAD_GENERIC_INVOKE', 'HIGH', file.file, m.line, m.text);
    }
    // A session that grants permissions (camera, notifications…) by default is a risk; ours denies.
    if (/BrowserWindow/.test(code) && /session\./.test(code) && !/setPermissionRequestHandler/.test(code)) {
      add('PERMISSIONS_NOT_HANDLED', 'MEDIUM', file.file, 1, 'session without setPermissionRequestHandler');
    }
  }
  return findings;
}
