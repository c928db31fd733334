import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { Embedder } from '../../projections/embedder.js';
import type { SearchIndex } from '../../projections/ports.js';
import type { DeliveryAuth } from '../../read-api/delivery/auth.js';
import type { WriteDeps } from '../../write-api/deps.js';
import { deliveryWrites } from '../../write-api/delivery-writes.js';
import { bodyDepthGuard } from './body-depth.js';
import { deliveryRouter } from '../../read-api/delivery/router.js';
import type { McpEndpoint } from '../../read-api/delivery/mcp/endpoint.js';
import type { DeliveryRouting } from '../../read-api/delivery/routing.js';
import type { EnvironmentStatus } from '../../read-api/environment-status.js';
import { errorMiddleware, notFoundRoute } from './errors.js';
import { jsonBodiesOnly } from './json-only.js';
import { BODY_LIMIT } from './management-app.js';
import { deferBodyErrors, jsonBody } from './raw-body.js';

/** The delivery interface: `{delivery_url}/{api_prefix}/...` where delivery_url is `{origin}/{env}`. */
export function deliveryApp(deps: { routing: DeliveryRouting; searchIndex: SearchIndex; embedder: Embedder; auth: DeliveryAuth; writes: WriteDeps; mcp?: Pick<McpEndpoint, 'handle'>; log: (m: string, e: unknown) => void; status?: EnvironmentStatus; front?: RequestHandler }): Express {
  const app = express();
  app.set('etag', false);
  app.set('x-powered-by', false);
  app.use(helmet({ contentSecurityPolicy: false }));
  if (deps.front) app.use(deps.front);
  app.use(jsonBodiesOnly);
  // A body that does not parse is reported after authentication (read-api/delivery/auth.ts).
  app.use(deferBodyErrors(jsonBody(BODY_LIMIT)));
  app.use(bodyDepthGuard);
  if (deps.status) app.use('/:env', deps.status.guard());
  app.use(deliveryRouter({ routing: deps.routing, index: deps.searchIndex, auth: deps.auth, writes: deliveryWrites(deps.writes, deps.auth), mcp: deps.mcp, search: { index: deps.searchIndex, embedder: deps.embedder } }));
  app.use(notFoundRoute('route_not_found'));
  app.use(errorMiddleware(deps.log));
  return app;
}
