import express, { type Express, type RequestHandler, type Router } from 'express';
import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { ReadDeps } from '../../read-api/deps.js';
import type { ReadStore } from '../../projections/ports.js';
import { apiKeysReadRoutes } from '../../read-api/api-keys.js';
import { apiKeysWriteRoutes } from '../../write-api/api-keys.js';
import { auditEventsReadRoutes, globalEventsReadRoutes } from '../../read-api/audit-events.js';
import type { AuditDeps } from '../../read-api/audit/deps.js';
import { environmentReplayRoutes, globalReplayRoutes } from '../../read-api/audit/replay.js';
import { verifyRoutes } from '../../read-api/audit/verify.js';
import { auditCheckpointsRoutes } from '../../read-api/audit/checkpoints.js';
import { collectionsReadRoutes } from '../../read-api/collections.js';
import { componentsReadRoutes } from '../../read-api/components.js';
import { deliveryApisReadRoutes } from '../../read-api/delivery-apis.js';
import { localesReadRoutes } from '../../read-api/locales.js';
import { resourcesReadRoutes } from '../../read-api/resources.js';
import { rolesReadRoutes } from '../../read-api/roles.js';
import { webhooksReadRoutes } from '../../read-api/webhooks.js';
import { fieldsReadRoutes } from '../../read-api/fields.js';
import { revisionsReadRoutes } from '../../read-api/revisions.js';
import { schemaReadRoutes } from '../../read-api/schema.js';
import type { WriteDeps } from '../../write-api/deps.js';
import { collectionsWriteRoutes } from '../../write-api/collections.js';
import { componentsWriteRoutes } from '../../write-api/components.js';
import { componentSyncWriteRoutes } from '../../write-api/component-sync.js';
import { deliveryApisWriteRoutes } from '../../write-api/delivery-apis.js';
import { localesWriteRoutes } from '../../write-api/locales.js';
import { resourceWriteRoutes } from '../../write-api/resources.js';
import { rolesWriteRoutes } from '../../write-api/roles.js';
import { webhooksWriteRoutes } from '../../write-api/webhooks.js';
import { fieldsWriteRoutes } from '../../write-api/fields.js';
import { revisionsWriteRoutes } from '../../write-api/revisions.js';
import { schemaWriteRoutes } from '../../write-api/schema.js';
import { environmentGuard, managementAuth } from '../auth/management-auth.js';
import { managementPermissions } from '../auth/management-permissions.js';
import { bodyDepthGuard } from './body-depth.js';
import { errorMiddleware, notFoundRoute } from './errors.js';
import { routerOf } from './handler.js';
import { securityHeadersMiddleware } from './security-headers.js';
import { jsonBodiesOnly } from './json-only.js';
import { jsonBody, secureBodyFirst } from './raw-body.js';
import { tenancyRouter, type TenancyHttp } from './tenancy-routes.js';
import { strictQueryParameters } from './query-parameters.js';
import type { UsedSignatures } from '../../read-api/auth/secure-signature.js';

/** Where the resource and revision routers are mounted (collections and folders are the same thing). */
const RESOURCES = ['/collections/:collection/resources', '/folders/:collection/resources'];
const REVISIONS = RESOURCES.map((base) => `${base}/:resource/revisions`);

/** Request bodies up to this size are parsed; the 1 MB payload rule is the domain's. */
export const BODY_LIMIT = '8mb';

/** The management (command and query) interface under `/v1`. */
export function managementApp(deps: ReadDeps & WriteDeps & AuditDeps & { jwtSecret: string; usedSignatures: UsedSignatures; log: (m: string, e: unknown) => void; tenancy: TenancyHttp; front?: (router: Router) => unknown; console?: RequestHandler; requestReads?: ReadStore }): Express {
  const app = express();
  app.set('etag', false);
  app.set('x-powered-by', false);
  app.use(securityHeadersMiddleware());
  // Request ids, metrics and the operations endpoints: before credentials (docs/decisions/0110).
  // Into the app's own router: every request would otherwise leave a front router of its own at its end, and express leaves a router through `setImmediate` (a turn of the event loop).
  deps.front?.(app.router);
  if (deps.console) app.use('/console', deps.console);
  // Credentials first: an unauthenticated request is 401 whatever its body holds.
  // A Secure signature covers the body: such requests read it first (a parse error still waits for the 401).
  const json = jsonBody(BODY_LIMIT);
  app.use(secureBodyFirst(json));
  // The user and environment reads before every handler, kept between read-model batches (docs/decisions/0270).
  app.use(managementAuth(deps.jwtSecret, deps.requestReads ?? deps.readStore, deps.usedSignatures));
  app.use(deps.tenancy.rateLimit);
  app.use(jsonBodiesOnly);
  app.use(json);
  app.use(bodyDepthGuard);
  app.use(strictQueryParameters());

  // Each router is mounted under its path prefix, so a request enters only the routers of its own
  // branch (express tests every layer it passes); the resource routes, the busiest, come first.
  app.use('/v1/global-events', routerOf([...globalEventsReadRoutes(deps), ...globalReplayRoutes(deps), ...verifyRoutes(deps)]));
  app.use('/v1/audit', routerOf(auditCheckpointsRoutes(deps)));
  const env = express.Router({ mergeParams: true });
  env.use(environmentGuard(deps.requestReads ?? deps.readStore, deps.tenancy.status));
  env.use(managementPermissions(deps.readStore));
  env.use(RESOURCES, routerOf([...resourceWriteRoutes(deps), ...resourcesReadRoutes(deps)]));
  env.use(REVISIONS, routerOf([...revisionsReadRoutes(deps), ...revisionsWriteRoutes(deps)]));
  env.use(
    routerOf([
      ...environmentReplayRoutes(deps),
      ...auditEventsReadRoutes(deps),
      ...collectionsReadRoutes(deps),
      ...collectionsWriteRoutes(deps),
      ...componentsReadRoutes(deps),
      ...componentsWriteRoutes(deps),
      ...componentSyncWriteRoutes(deps),
      ...schemaReadRoutes(deps),
      ...schemaWriteRoutes(deps),
      ...fieldsReadRoutes(deps),
      ...fieldsWriteRoutes(deps),
      ...deliveryApisReadRoutes(deps),
      ...deliveryApisWriteRoutes(deps),
      ...apiKeysReadRoutes(deps),
      ...apiKeysWriteRoutes(deps),
      ...rolesReadRoutes(deps),
      ...rolesWriteRoutes(deps),
      ...localesReadRoutes(deps),
      ...localesWriteRoutes(deps),
      ...webhooksReadRoutes(deps),
      ...webhooksWriteRoutes(deps),
    ]),
  );
  app.use('/v1/:env', env);
  app.use(tenancyRouter(deps, deps.tenancy));
  app.use(notFoundRoute('route_not_found'));
  app.use(errorMiddleware(deps.log));
  return app;
}

/**
 * The HTTP server's request and response classes for an express app (node's `createServer`
 * options): their prototypes are the app's `request` and `response`, so the objects have
 * express's methods from the start and express's own `Object.setPrototypeOf` on each request
 * finds the prototype already in place and changes nothing (changing it makes V8 give the new
 * object a map of its own, and every later property access on it slower).
 */
export function expressServerOptions(app: Express): ServerOptions {
  const own = app as unknown as { request: object; response: object };
  class AppRequest extends IncomingMessage {}
  class AppResponse extends ServerResponse {}
  Object.setPrototypeOf(AppRequest.prototype, own.request);
  Object.setPrototypeOf(AppResponse.prototype, own.response);
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse as ServerOptions['ServerResponse'] };
}
