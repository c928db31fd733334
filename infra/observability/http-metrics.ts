import type { Express, RequestHandler } from 'express';
import { match } from 'path-to-regexp';
import { errorCodeOf } from '../http/errors.js';
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

/**
 * Counts and times every request by interface, method, route template and status, and counts
 * every 403 by route template and error code (prom-client's Counter and Histogram).
 */
export function httpMetrics(metrics: Metrics, api: Interface): RequestHandler {
  let routes: Matcher[] | null = null;
  // The label of each method and path seen lately: finding it tests the route templates one by one (docs/decisions/0216).
  const labels = new Map<string, string>();
  const labelOf = (app: Express, method: string, path: string): string => {
    const seen = `${method} ${path}`;
    let label = labels.get(seen);
    if (label === undefined) {
      routes ??= matchers(app);
      label = routeLabel(routes, method, path);
      if (labels.size >= 10_000) labels.clear();
      labels.set(seen, label);
    }
    return label;
  };
  return (req, res, next) => {
    const started = performance.now();
    const path = req.path;
    res.on('finish', () => {
      const route = labelOf(req.app as Express, req.method, path);
      const labels = { interface: api, method: req.method, route, status: String(res.statusCode) };
      metrics.httpDuration.observe(labels, (performance.now() - started) / 1000);
      metrics.httpRequests.inc(labels);
      if (res.statusCode === 403) metrics.refusals.inc({ interface: api, route, error_code: errorCodeOf(res) ?? 'none' });
    });
    next();
  };
}
