// One server of the delivery router A/B (router-ab.ts, docs/decisions/0370), in its own process:
// `express` (express 5, helmet, pino-http, a prom-client histogram, one `/:env/:prefix/*segments`
// route) or `find-my-way` (node:http routed by find-my-way, with helmet's headers taken once, the
// same pino-http and histogram). Both answer every GET with the same remembered bytes, looked up
// by URL as the answer cache does. It receives the body over IPC, reports its port, and exits
// when the parent goes away.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import findMyWay from 'find-my-way';
import helmet from 'helmet';
import { pino } from 'pino';
import { pinoHttp } from 'pino-http';
import { Histogram, Registry } from 'prom-client';

const kind = process.argv[2];

function serve(body: string): void {
  const bytes = Buffer.from(body);
  const cache = new Map<string, Buffer>();
  // At the level the bench runs the service with (BENCH_SERVICE_LOG_LEVEL, warn): the request line is built, not written.
  const log = pinoHttp({ logger: pino({ level: 'warn' }, pino.destination('/dev/null')), quietReqLogger: true });
  const histogram = new Histogram({ name: 'http_request_duration_seconds', help: 'x', labelNames: ['route', 'status'], registers: [new Registry()] });
  const observe = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    res.on('finish', () => histogram.observe({ route: '/:env/:prefix/*', status: String(res.statusCode) }, (performance.now() - started) / 1000));
    log(req, res);
  };
  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    const key = req.url ?? '/';
    let found = cache.get(key);
    if (!found) cache.set(key, (found = bytes));
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('content-length', found.length);
    res.end(found);
  };
  let handler: (req: IncomingMessage, res: ServerResponse) => void;
  if (kind === 'express') {
    const app = express();
    app.set('etag', false);
    app.set('x-powered-by', false);
    app.use(helmet({ contentSecurityPolicy: false }));
    app.use((req, res, next) => (observe(req, res), next()));
    app.get('/:env/:prefix/*segments', (req, res) => answer(req, res));
    handler = app;
  } else {
    const headers: Record<string, string> = {};
    const recorder = { setHeader: (n: string, v: string) => void (headers[n.toLowerCase()] = v), removeHeader: (n: string) => void delete headers[n.toLowerCase()] };
    helmet({ contentSecurityPolicy: false })(recorder as never, recorder as never, () => {});
    const router = findMyWay({ ignoreTrailingSlash: true, defaultRoute: (_req, res) => res.writeHead(404).end() });
    router.on('GET', '/:env/:prefix/*', (req, res) => answer(req, res));
    handler = (req, res) => {
      for (const name in headers) res.setHeader(name, headers[name]!);
      observe(req, res);
      router.lookup(req, res);
    };
  }
  const server = createServer(handler);
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
}

process.once('message', (message) => serve((message as { body: string }).body));
process.once('disconnect', () => process.exit(0));
