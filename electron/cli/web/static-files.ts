// The built renderer, served read-only from one folder. Paths are resolved inside it or refused;
// unknown paths without an extension get index.html (the renderer routes by hash, so this is rare).
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticFile {
  body: Buffer;
  type: string;
  /** Hashed asset names never change content; everything else is revalidated. */
  immutable: boolean;
}

/** The file for a URL path, or null when there is none (or the path tries to leave the folder). */
export async function staticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = normalize(join(root, relative));
  if (full !== root && !full.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  const target = (await isFile(full)) ? full : extname(relative) === '' ? join(root, 'index.html') : null;
  if (!target || !(await isFile(target))) return null;
  return {
    body: await readFile(target),
    type: TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream',
    immutable: target.includes(`${sep}assets${sep}`),
  };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
