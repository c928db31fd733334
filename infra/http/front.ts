import { Router } from 'express';
import type { Logger } from '../logger.js';
import { httpMetrics } from '../observability/http-metrics.js';
import type { Interface, Metrics } from '../observability/metrics.js';
import type { Readiness } from '../observability/readiness.js';
import { referenceRouter } from '../openapi/reference.js';
import { requestLog } from '../observability/request-log.js';

export type FrontDeps = {
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly readiness: () => Promise<Readiness>;
};

/**
 * What both interfaces put before everything else, credentials included: the request id and
 * its log line, the HTTP metrics, and the operations endpoints `/healthz` (the process
 * answers), `/readyz` (event store reachable, projections caught up; 503 otherwise) and
 * `/metrics` (Prometheus text format); the interface's `/openapi.json` and its reference page `/docs/`.
 * Given a router (an app's own, `app.router`), they are added to it: a router of their own would
 * be left at its end by every other request, and express leaves a router through `setImmediate`.
 */
export function frontRouter(deps: FrontDeps, api: Interface, router: Router = Router()): Router {
  return referenceRouter(api, operationsRouter(deps, api, router));
}

/** The request log, the HTTP metrics and the operations endpoints alone: all a `worker` process serves (docs/decisions/0388). */
export function operationsRouter(deps: FrontDeps, api: Interface, router: Router = Router()): Router {
  router.use(requestLog(deps.logger, api));
  router.use(httpMetrics(deps.metrics, api));
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const report = await deps.readiness();
    res.set('Cache-Control', 'no-store').status(report.status === 'ready' ? 200 : 503).json(report);
  });
  router.get('/metrics', async (_req, res) => {
    res.set('Cache-Control', 'no-store').type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  return router;
}
