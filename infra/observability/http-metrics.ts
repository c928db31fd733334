import type { Express, RequestHandler } from 'express';
import { match } from 'path-to-regexp';
import { routeTable } from '../http/route-table.js';
import type { Interface, Metrics } from './metrics.js';

type Matcher = { readonly method: string; readonly path: string; readonly test: (path: string) => boolean };

/** The route table of an app as matchers, in registration order (express picks the first match too). */
export function matchers(app: Express): Matcher[] {
  return routeTable(app).map((route) => {
    const matches = match(route.path, { decode: false, end: true, trailing: true });
    return { method: route.method, path: route.path, test: (path: string) => matches(path) !== false };
  });
}

/** The template of the route a request addresses (`/v1/:env/locales/:code/`), or `unmatched`: a small, bounded label set. */
export function routeLabel(routes: readonly Matcher[], method: string, path: string): string {
  const wanted = method === 'HEAD' ? 'GET' : method;
  return routes.find((r) => (r.method === wanted || r.method === 'ALL') && r.test(path))?.path ?? 'unmatched';
}

/** Counts and times every request by interface, method, route template and status. */
export function httpMetrics(metrics: Metrics, api: Interface): RequestHandler {
  let routes: Matcher[] | null = null;
  return (req, res, next) => {
    const end = metrics.httpDuration.startTimer();
    const path = req.path;
    res.once('finish', () => {
      routes ??= matchers(req.app as Express);
      const labels = { interface: api, method: req.method, route: routeLabel(routes, req.method, path), status: String(res.statusCode) };
      metrics.httpRequests.inc(labels);
      end(labels);
    });
    next();
  };
}
