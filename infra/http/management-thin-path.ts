import type { Express, RequestHandler } from 'express';
import helmet from 'helmet';
import type { ReadStore } from '../../projections/ports.js';
import type { WriteDeps } from '../../write-api/deps.js';
import { createResourceHandler, deleteResourceHandler, updateResourceHandler, upsertResourceHandler } from '../../write-api/resources.js';
import { environmentGuard, managementAuth } from '../auth/management-auth.js';
import { managementPermissions } from '../auth/management-permissions.js';
import type { Logger } from '../logger.js';
import { httpMetrics } from '../observability/http-metrics.js';
import type { Metrics } from '../observability/metrics.js';
import { requestLine } from '../observability/request-line.js';
import { bodyDepthGuard } from './body-depth.js';
import { errorMiddleware } from './errors.js';
import { jsonBodiesOnly } from './json-only.js';
import { BODY_LIMIT } from './management-app.js';
import { managementFront, type ManagementFront, type ThinRoute } from './management-front.js';
import { plainJsonBody } from './plain-json-body.js';
import { jsonBody } from './raw-body.js';
import type { TenancyHttp } from './tenancy-routes.js';
import { strictQueryParameters } from './query-parameters.js';
import type { UsedSignatures } from '../../read-api/auth/secure-signature.js';

export type ThinPathDeps = WriteDeps & {
  readonly jwtSecret: string;
  readonly usedSignatures: UsedSignatures;
  readonly log: (message: string, error: unknown) => void;
  readonly tenancy: TenancyHttp;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** The store of the credential and environment reads, as the express app has it (docs/decisions/0270). */
  readonly requestReads?: ReadStore;
};

/**
 * A middleware that only sets fixed response headers (helmet's, with its default options:
 * no nonce, nothing read from the request), replaced by one that sets the headers it set once,
 * in the same order: eleven middleware calls become one loop (docs/decisions/0216).
 */
export function fixedHeaders(middleware: RequestHandler): RequestHandler {
  const headers: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => void headers.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
  };
  let called = false;
  void middleware(recorder as never, recorder as never, () => void (called = true));
  if (!called) throw new Error('the header middleware did not finish at once');
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/** BODY_LIMIT (`8mb`, as the body parser counts it) in bytes. */
const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/** A path segment as the thin path takes it: no percent-encoding (express would decode it), no slash. */
const SEGMENT = '([^/%?#]+)';

/** The routes the management front runs without express's router (docs/decisions/0215). */
export function thinRoutes(deps: WriteDeps): ThinRoute[] {
  const resources = new RegExp(`^/v1/${SEGMENT}/(?:collections|folders)/${SEGMENT}/resources/$`);
  const resource = new RegExp(`^/v1/${SEGMENT}/(?:collections|folders)/${SEGMENT}/resources/${SEGMENT}/$`);
  return [
    { method: 'POST', path: resources, params: ['env', 'collection'], handler: createResourceHandler(deps) },
    { method: 'PUT', path: resources, params: ['env', 'collection'], handler: upsertResourceHandler(deps) },
    { method: 'PUT', path: resource, params: ['env', 'collection', 'resource'], handler: updateResourceHandler(deps) },
    { method: 'DELETE', path: resource, params: ['env', 'collection', 'resource'], handler: deleteResourceHandler(deps) },
  ];
}

/**
 * The management interface's listener: the express app `app`, and in front of it the thin path
 * for the hot write routes, built from the same middleware factories in the order
 * management-app.ts and front.ts use them (the request log line written by requestLine, which
 * writes pino-http's line without its per-request loggers) (but the Secure body reader: Secure-signed requests
 * go to the app). The rate limit is the app's own instance, whose counters are shared.
 */
export function managementThinPath(app: Express, deps: ThinPathDeps): ManagementFront {
  const json = jsonBody(BODY_LIMIT);
  return managementFront(
    app,
    {
      app: [
        fixedHeaders(helmet()),
        requestLine(deps.logger, 'management'),
        httpMetrics(deps.metrics, 'management'),
        managementAuth(deps.jwtSecret, deps.requestReads ?? deps.readStore, deps.usedSignatures),
        deps.tenancy.rateLimit,
        jsonBodiesOnly,
        plainJsonBody(BODY_LIMIT_BYTES, json),
        bodyDepthGuard,
        strictQueryParameters(),
      ],
      env: [environmentGuard(deps.requestReads ?? deps.readStore), deps.tenancy.status.guard(), managementPermissions(deps.readStore)],
      error: errorMiddleware(deps.log),
    },
    thinRoutes(deps),
  );
}
