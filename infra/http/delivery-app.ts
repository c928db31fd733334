import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Embedder } from '../../projections/embedder.js';
import type { SearchIndex } from '../../projections/ports.js';
import { bodyDepthGuard } from './body-depth.js';
import { deliveryRouter } from '../../read-api/delivery/router.js';
import type { DeliveryRouting } from '../../read-api/delivery/routing.js';
import { errorMiddleware, notFoundRoute } from './errors.js';
import { BODY_LIMIT } from './management-app.js';

/** The delivery interface: `{delivery_url}/{api_prefix}/...` where delivery_url is `{origin}/{env}`. */
export function deliveryApp(deps: { routing: DeliveryRouting; searchIndex: SearchIndex; embedder: Embedder; log: (m: string, e: unknown) => void }): Express {
  const app = express();
  app.set('etag', false);
  app.set('x-powered-by', false);
  app.use(helmet({ contentSecurityPolicy: false }));
  app.use(express.json({ limit: BODY_LIMIT, strict: false }));
  app.use(bodyDepthGuard);
  app.use(deliveryRouter(deps.routing, deps.searchIndex, { index: deps.searchIndex, embedder: deps.embedder }));
  app.use(notFoundRoute('route_not_found'));
  app.use(errorMiddleware(deps.log));
  return app;
}
