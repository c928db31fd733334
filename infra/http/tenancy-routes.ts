import { Router, type RequestHandler } from 'express';
import type { BillingSettings } from '../../domain/billing.js';
import type { EnvironmentStatus } from '../../read-api/environment-status.js';
import { organizationsReadRouter } from '../../read-api/organizations.js';
import { routerOf } from './handler.js';
import { projectsReadRouter } from '../../read-api/projects.js';
import type { ReadDeps } from '../../read-api/deps.js';
import type { RequestCounter } from '../../read-api/request-counter.js';
import type { WriteDeps } from '../../write-api/deps.js';
import { environmentsWriteRoutes } from '../../write-api/environments.js';
import { organizationsWriteRoutes } from '../../write-api/organizations.js';
import { projectsWriteRoutes } from '../../write-api/projects.js';

/** What the management interface needs for tenancy: its routes' settings, the rate limit, environment status. */
export type TenancyHttp = {
  readonly billing: BillingSettings;
  readonly requests: RequestCounter;
  readonly resourceLimit: number | null;
  /** The per-organization requests-per-minute limit (runs after authentication). */
  readonly rateLimit: RequestHandler;
  /** Disabled and deleted environments, refused on `/v1/:env/...` and on delivery. */
  readonly status: EnvironmentStatus;
};

/** `/organizations/...`, `/regions/`, `/plans/` (no `/v1`, as the product's paths). */
export function tenancyRouter(deps: ReadDeps & WriteDeps, tenancy: TenancyHttp): Router {
  const router = Router();
  const all = { ...deps, billing: tenancy.billing, requests: tenancy.requests, resourceLimit: tenancy.resourceLimit };
  router.use(organizationsReadRouter(all));
  router.use(routerOf(organizationsWriteRoutes(all)));
  router.use(projectsReadRouter(all));
  router.use(routerOf(projectsWriteRoutes(all)));
  router.use(routerOf(environmentsWriteRoutes(all)));
  return router;
}
