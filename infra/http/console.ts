import express, { Router, type RequestHandler } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where `npm install` builds the console (infra/cli/build-if-stale.mjs, docs/decisions/0358):
 * `dist/console/`, found from this module whether it runs from the sources or from `dist/`.
 */
export function consoleDir(): string {
  const up = fileURLToPath(new URL('../../', import.meta.url));
  return basename(up) === 'dist' ? join(up, 'console') : join(up, 'dist', 'console');
}

/** The page's own origin for everything; requests also to the delivery interface (its previews). */
export function consoleCsp(deliveryOrigin: string): string {
  const connect = deliveryOrigin ? `'self' ${deliveryOrigin}` : "'self'";
  return `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src ${connect}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
}

const attribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The web console at `/console/` (docs/decisions/0358): its built static files, and its page
 * with the delivery origin in a `<meta>` tag. Nothing else: the console calls the public
 * management and delivery endpoints with the user's own credentials. Middleware, not routes,
 * so the interface's route table (and its OpenAPI document) stays the API's.
 */
export function consoleRouter(deliveryOrigin: () => string, dir = consoleDir()): Router {
  return Router().use('/console', consoleFiles(deliveryOrigin, dir));
}

/** The console's files and page, for requests under `/console` (mounted there, `req.path` is the rest). */
export function consoleFiles(deliveryOrigin: () => string, dir = consoleDir()): RequestHandler {
  const assets = express.static(dir, { index: false, maxAge: '1d' });
  const serve: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const origin = deliveryOrigin();
    res.set('Content-Security-Policy', consoleCsp(origin));
    if (req.path !== '/' && req.path !== '/index.html') {
      return assets(req, res, () => void res.status(404).json({ message: 'No such console file.', error_code: 'route_not_found', detail: null }));
    }
    const file = join(dir, 'index.html');
    if (!existsSync(file)) {
      res.status(503).json({ message: 'The console is not built: run npm run build.', error_code: 'console_not_built', detail: null });
      return;
    }
    // Read at each request: a rebuild while the service runs is served at once.
    res.set('Cache-Control', 'no-store').type('html').send(readFileSync(file, 'utf8').replace('__DELIVERY_ORIGIN__', attribute(origin)));
  };
  return serve;
}
