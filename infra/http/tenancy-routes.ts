import type { RequestHandler, Router } from 'express';
import type { BillingSettings } from '../../domain/billing.js';
import type { EnvironmentStatus } from '../../read-api/environment-status.js';
import { organizationsReadRoutes } from '../../read-api/organizations.js';
import { routerOf } from './handler.js';
import { projectsReadRoutes } from '../../read-api/projects.js';
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
  const all = { ...deps, billing: tenancy.billing, requests: tenancy.requests, resourceLimit: tenancy.resourceLimit };
  return routerOf([
    ...organizationsReadRoutes(all),
    ...organizationsWriteRoutes(all),
    ...projectsReadRoutes(all),
    ...projectsWriteRoutes(all),
    ...environmentsWriteRoutes(all),
  ]);
}
