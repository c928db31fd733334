import express, { type Express } from 'express';
import helmet from 'helmet';
import type { ReadStore, SearchIndex } from '../../projections/ports.js';
import { DeliveryAuth } from '../../read-api/delivery/auth.js';
import type { WriteDeps } from '../../write-api/deps.js';
import { deliveryWrites } from '../../write-api/delivery-writes.js';
import { bodyDepthGuard } from './body-depth.js';
import { deliveryRouter } from '../../read-api/delivery/router.js';
import type { DeliveryRouting } from '../../read-api/delivery/routing.js';
import { errorMiddleware, notFoundRoute } from './errors.js';
import { BODY_LIMIT } from './management-app.js';
import { jsonBody } from './raw-body.js';

/** The delivery interface: `{delivery_url}/{api_prefix}/...` where delivery_url is `{origin}/{env}`. */
export function deliveryApp(deps: { routing: DeliveryRouting; searchIndex: SearchIndex; readStore: ReadStore; writes: WriteDeps; log: (m: string, e: unknown) => void }): Express {
  const app = express();
  app.set('etag', false);
  app.set('x-powered-by', false);
  app.use(helmet({ contentSecurityPolicy: false }));
  app.use(jsonBody(BODY_LIMIT));
  app.use(bodyDepthGuard);
  const auth = new DeliveryAuth(deps.readStore);
  app.use(deliveryRouter(deps.routing, deps.searchIndex, auth, deliveryWrites(deps.writes, auth)));
  app.use(notFoundRoute('route_not_found'));
  app.use(errorMiddleware(deps.log));
  return app;
}
