import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { SearchIndex } from '../../projections/ports.js';
import { bodyDepthGuard } from './body-depth.js';
import { deliveryRouter } from '../../read-api/delivery/router.js';
import type { McpEndpoint } from '../../read-api/delivery/mcp/endpoint.js';
import type { DeliveryRouting } from '../../read-api/delivery/routing.js';
import { errorMiddleware, notFoundRoute } from './errors.js';
import { JSON_TYPES, jsonBodiesOnly } from './json-only.js';
import { BODY_LIMIT } from './management-app.js';

/** The delivery interface: `{delivery_url}/{api_prefix}/...` where delivery_url is `{origin}/{env}`. */
export function deliveryApp(deps: {
  routing: DeliveryRouting;
  searchIndex: SearchIndex;
  mcp?: McpEndpoint;
  log: (m: string, e: unknown) => void;
  front?: RequestHandler;
}): Express {
  const app = express();
  app.set('etag', false);
  app.set('x-powered-by', false);
  app.use(helmet({ contentSecurityPolicy: false }));
  if (deps.front) app.use(deps.front);
  app.use(jsonBodiesOnly);
  app.use(express.json({ limit: BODY_LIMIT, strict: false, type: JSON_TYPES }));
  app.use(bodyDepthGuard);
  app.use(deliveryRouter(deps.routing, deps.searchIndex, deps.mcp));
  app.use(notFoundRoute('route_not_found'));
  app.use(errorMiddleware(deps.log));
  return app;
}
