import type { IncomingMessage } from 'node:http';
import type { Express } from 'express';
import type { Logger } from '../logger.js';
import { matchers, routeLabel } from './http-metrics.js';
import type { Metrics } from './metrics.js';
import { idOf } from './request-log.js';

/** What an answer written by the delivery front from remembered bytes reports, as the express app's front does for every other answer. */
export type ServedObserver = {
  /** The request's id (the caller's plain one, or a new UUID), for its `X-Request-Id` header. */
  readonly idOf: (req: IncomingMessage) => string;
  /** Counts, times and logs an answer written at `started` (a `process.hrtime.bigint()`). */
  readonly answered: (req: IncomingMessage, id: string, path: string, status: number, started: bigint) => void;
};

/**
 * The request id, the log line (pino-http's shape: `req_id`, `req`, `res`, `responseTime`) and
 * the HTTP metrics of the delivery interface for answers that never reach express
 * (docs/decisions/0132), so an operator sees every delivery read the same way.
 */
export function servedObserver(deps: { readonly logger: Logger; readonly metrics: Metrics; readonly app: Express }): ServedObserver {
  const log = deps.logger.child({ interface: 'delivery' });
  let routes: ReturnType<typeof matchers> | null = null;
  const labels = new Map<string, string>();
  const routeOf = (path: string): string => {
    let label = labels.get(path);
    if (label === undefined) {
      routes ??= matchers(deps.app);
      label = routeLabel(routes, 'GET', path);
      if (labels.size > 10_000) labels.clear();
      labels.set(path, label);
    }
    return label;
  };
  return {
    idOf,
    answered(req, id, path, status, started) {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const metricLabels = { interface: 'delivery', method: req.method ?? 'GET', route: routeOf(path), status: String(status) };
      deps.metrics.httpDuration.observe(metricLabels, seconds);
      deps.metrics.httpRequests.inc(metricLabels);
      if (log.isLevelEnabled('info')) {
        log.info({ req_id: id, req: { method: req.method, url: req.url }, res: { status }, responseTime: Math.round(seconds * 1000) }, 'request completed');
      }
    },
  };
}
