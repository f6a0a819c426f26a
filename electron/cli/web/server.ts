// The browser shell's server: the built renderer and the contract, on 127.0.0.1 only.
//   POST /api/<call>   JSON input → Result JSON   (token in the x-giftbatch-token header)
//   GET  /api/events   WebSocket of `{ event, payload }` messages (token as a subprotocol)
// Everything else is the renderer's files. See security.ts for why each guard is there.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { events, PROGRESS_ID_HEADER, type EventName } from '../../../shared/contract.ts';
import { CreateStoppedError, STOPPING_MESSAGE } from '../../core/app/create-stop.ts';
import type { AppService } from '../../core/app/index.ts';
import { refusalFor, securityHeaders, TOKEN_HEADER, EVENTS_PROTOCOL, tokenFromProtocols } from './security.ts';
import { staticFile } from './static-files.ts';
import { UploadingCreates, type Upload } from './uploading-creates.ts';

export interface WebServerOptions {
  service: AppService;
  /** The built renderer (index.html and assets/). */
  rendererDir: string;
  token: string;
  port?: number;
  log?: (line: string) => void;
  /** Largest API body accepted; a CSV travels base64 inside it (contract: 70 MB). */
  maxBodyBytes?: number;
}

export interface WebServer {
  readonly port: number;
  /** The address to open, token included. */
  readonly url: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const EVENTS_PATH = '/api/events';

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const log = options.log ?? (() => undefined);
  const maxBody = options.maxBodyBytes ?? 80 * 1024 * 1024;
  let port = 0;
  const uploading = new UploadingCreates();

  const send = (res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>) => {
    res.writeHead(status, { ...securityHeaders(port), ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(body);
  };
  const sendJson = (res: ServerResponse, status: number, value: unknown) =>
    send(res, status, JSON.stringify(value), { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  const forbidden = (res: ServerResponse, message: string) => sendJson(res, 403, { ok: false, error: { code: 'forbidden', message } });

  const handleApi = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const refusal = refusalFor(
      { host: req.headers.host, origin: req.headers.origin, token: header(req, TOKEN_HEADER) },
      { port, token: options.token, needsToken: true },
    );
    if (refusal) return forbidden(res, refusal.message);
    if (req.method !== 'POST') {
      return sendJson(res, 405, { ok: false, error: { code: 'invalid-input', message: 'Calls are made with POST and a JSON body.' } });
    }
    if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
      return sendJson(res, 415, { ok: false, error: { code: 'invalid-input', message: 'Calls carry a JSON body (Content-Type: application/json).' } });
    }
    const name = decodeURIComponent(path.slice('/api/'.length));
    const progressId = name === 'campaigns:create' ? progressIdHeader(req) : null;
    if (progressId === 'malformed') {
      return sendJson(res, 400, { ok: false, error: { code: 'invalid-input', message: `The ${PROGRESS_ID_HEADER} header is not a progressId (1 to 100 characters, URI-encoded). Nothing was created.` } });
    }
    // Known before its body arrives, so a stop that overtakes the body is not lost (uploading-creates.ts).
    const upload = progressId !== null ? uploading.begin(progressId) : null;
    try {
      await answerApi(req, res, name, progressId, upload);
    } finally {
      upload?.end();
    }
  };

  const answerApi = async (req: IncomingMessage, res: ServerResponse, name: string, progressId: string | null, upload: Upload | null) => {
    const body = await readBody(req, maxBody);
    if (body === 'too-large') {
      return sendJson(res, 413, { ok: false, error: { code: 'invalid-input', message: 'The request is too large. Split the CSV into smaller files.' } });
    }
    let input: unknown;
    try {
      input = body.length === 0 ? {} : (JSON.parse(body.toString('utf8')) as unknown);
    } catch {
      return sendJson(res, 400, { ok: false, error: { code: 'invalid-input', message: 'The request body is not valid JSON.' } });
    }
    if (progressId !== null && progressIdIn(input) !== progressId) {
      return sendJson(res, 400, { ok: false, error: { code: 'invalid-input', message: `The ${PROGRESS_ID_HEADER} header names another create than the request's progressId. Nothing was created.` } });
    }
    // Stopped while its file was arriving: it never reaches the engine, so nothing is read or stored.
    if (upload?.stopAsked) return sendJson(res, 200, { ok: false, error: { code: 'stopped', message: new CreateStoppedError().message } });
    if (name === 'campaigns:stopCreate') {
      const id = progressIdIn(input);
      if (id !== null && uploading.hold(id)) return sendJson(res, 200, { ok: true, value: { outcome: 'stopping', message: STOPPING_MESSAGE } });
    }
    const answer = options.service.call(name, input);
    // Handed to the engine, whose create handler tracks its progressId before its first await: from
    // here a stop goes to the engine and is answered there.
    upload?.end();
    sendJson(res, 200, await answer);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/api/')) return handleApi(req, res, url.pathname);
    // The page and its assets carry no secrets, but a foreign Host is refused here too (DNS rebinding).
    const refusal = refusalFor({ host: req.headers.host, origin: undefined, token: null }, { port, token: options.token, needsToken: false });
    if (refusal) return send(res, 403, refusal.message, { 'Content-Type': 'text/plain; charset=utf-8' });
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed', { 'Content-Type': 'text/plain; charset=utf-8' });
    const file = await staticFile(options.rendererDir, url.pathname);
    if (!file) return send(res, 404, 'Not found', { 'Content-Type': 'text/plain; charset=utf-8' });
    send(res, 200, req.method === 'HEAD' ? '' : file.body, {
      'Content-Type': file.type,
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`request ${req.method ?? ''} ${req.url ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'internal', message: 'The local server failed on this request; the details are in its log.' } });
      else res.destroy();
    });
  });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 64 * 1024,
    handleProtocols: (protocols) => (protocols.has(EVENTS_PROTOCOL) ? EVENTS_PROTOCOL : false),
  });
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const refusal =
      url.pathname !== EVENTS_PATH
        ? { status: 404, message: 'Not found' }
        : refusalFor(
            { host: req.headers.host, origin: req.headers.origin, token: tokenFromProtocols(req.headers['sec-websocket-protocol']) },
            { port, token: options.token, needsToken: true },
          );
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal.status} ${refusal.status === 404 ? 'Not Found' : 'Forbidden'}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${refusal.message}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  wss.on('connection', (ws: WebSocket) => subscribe(ws, options.service, log));

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, HOST, () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;

  return {
    port,
    // In the fragment: the browser never sends it in a request, so no log or proxy sees it.
    url: `http://${HOST}:${port}/#token=${encodeURIComponent(options.token)}`,
    async close() {
      for (const client of wss.clients) client.close(1001, 'Giftbatch is shutting down');
      wss.close();
      http.closeIdleConnections();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        setTimeout(() => {
          http.closeAllConnections();
        }, 1_000).unref();
      });
    },
  };
}

/** Forwards the service's events to one socket until it closes; pings keep idle proxies from dropping it. */
function subscribe(ws: WebSocket, service: AppService, log: (line: string) => void): void {
  const offs = (Object.keys(events) as EventName[]).map((event) =>
    service.on(event, (payload) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event, payload }));
    }),
  );
  let alive = true;
  ws.on('pong', () => {
    alive = true;
  });
  const ping = setInterval(() => {
    if (!alive) return ws.terminate();
    alive = false;
    ws.ping();
  }, 30_000);
  ping.unref();
  // The channel is one-way; anything the page sends is ignored.
  ws.on('message', () => undefined);
  ws.on('error', (error) => log(`event socket: ${error.message}`));
  ws.on('close', () => {
    clearInterval(ping);
    for (const off of offs) off();
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A create's progressId from PROGRESS_ID_HEADER; null without the header, 'malformed' when it cannot be one. */
function progressIdHeader(req: IncomingMessage): string | null | 'malformed' {
  const value = header(req, PROGRESS_ID_HEADER);
  if (value === undefined) return null;
  let id: string;
  try {
    id = decodeURIComponent(value);
  } catch {
    return 'malformed';
  }
  return id.length >= 1 && id.length <= 100 ? id : 'malformed';
}

/** The progressId a call's input names, if it names one as the contract allows (a string). */
function progressIdIn(input: unknown): string | null {
  if (typeof input !== 'object' || input === null) return null;
  const id = (input as { progressId?: unknown }).progressId;
  return typeof id === 'string' ? id : null;
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
    // The page went away mid-upload: no body will come (and a create's upload entry is let go).
    req.on('close', () => {
      if (!req.complete) reject(new Error('the request was closed before its body arrived'));
    });
  });
}
