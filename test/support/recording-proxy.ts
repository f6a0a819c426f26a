// A tiny HTTP proxy in front of the simulator that keeps every request's exact bytes, to show what
// really went over the wire (e.g. that a retry re-sent a byte-identical body). Stopped after each test.

import { createServer, request, type Server } from 'node:http';
import { afterEach } from 'vitest';

export interface RecordedRequest {
  readonly method: string;
  /** Path and query. */
  readonly path: string;
  readonly body: string;
}

export interface RecordingProxy {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** POST bodies sent under one external_reference_id, in order. */
  postsFor(externalReferenceId: string): string[];
}

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

export async function startRecordingProxy(targetUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetUrl);
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', path: req.url ?? '', body: body.toString('utf8') });
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          // The simulator breaking a connection must reach the client as a broken connection.
          up.on('aborted', () => res.destroy());
          up.on('error', () => res.destroy());
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    postsFor(key) {
      return requests
        .filter((r) => r.method === 'POST' && r.path === '/v1/orders')
        .map((r) => r.body)
        .filter((body) => {
          try {
            return (JSON.parse(body) as { external_reference_id?: unknown }).external_reference_id === key;
          } catch {
            return false;
          }
        });
    },
  };
}
