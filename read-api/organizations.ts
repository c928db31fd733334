import { get, json, type ApiRoute } from '../api/handler.js';
import { windowOf, windowResetsAt, type BillingSettings } from '../domain/billing.js';
import { limitsOf, PLAN_CODES, shownLimit, type PlanCode } from '../domain/plan.js';
import { REGIONS } from '../domain/regions.js';
import { usageOf } from '../projections/usage.js';
import type { ReadDeps } from './deps.js';
import { findDoc } from '../api/find-doc.js';
import type { RequestCounter } from './request-counter.js';
import { organizationAdmin, userPrincipal } from '../api/tenancy-access.js';
import { organizationView, planView } from '../api/tenancy-views.js';

export type OrganizationReadDeps = ReadDeps & {
  readonly billing: BillingSettings;
  readonly requests: RequestCounter;
  /** RESOURCE_LIMIT per environment, or null. */
  readonly resourceLimit: number | null;
};

/** Organizations (a bare array), regions, plans, the organization's plan and its live usage. */
export function organizationsReadRoutes(deps: OrganizationReadDeps): ApiRoute[] {
  const { readStore, billing } = deps;
  const organization = (key: string) => findDoc(readStore, 'organizations', key, {}, 'not_found', 'Organization');
  const view = async (key: string) => {
    const doc = await organization(key);
    return organizationView(doc, await readStore.collection('users').get(String(doc.owner)));
  };

  return [
    get('/organizations/', async (request) => json(200, [await view(userPrincipal(request.principal).organization)])),
    get('/organizations/:org/', async (request) => json(200, await view(organizationAdmin(request).organization))),
    get('/regions/', async () => json(200, REGIONS)),
    get('/plans/', async () => json(200, PLAN_CODES.map((code) => planView(code, billing)))),
    get('/organizations/:org/plan/', async (request) => {
      const doc = await organization(organizationAdmin(request).organization);
      const since = String(doc.plan_changed_at ?? doc.created_at);
      return json(200, { active_plan: planView(doc.plan as PlanCode, billing, since, doc.unlimited === true), next_plan: null });
    }),
    get('/organizations/:org/usage/', async (request) => {
      const org = await organization(organizationAdmin(request).organization);
      const now = new Date().toISOString();
      const window = windowOf(now);
      const [usage, users] = await Promise.all([usageOf(readStore, org.key as string, window), readStore.collection('users').count({ organization: org.key as string })]);
      const plan = org.plan as PlanCode;
      const free = plan === 'free';
      const remained = free
        ? Math.max(0, billing.freeWrites - usage.writes)
        : billing.spendCapUsd === null || billing.writePriceUsd === 0
          ? null
          : Math.max(0, Math.floor(billing.spendCapUsd / billing.writePriceUsd) - usage.writes);
      return json(200, {
        units: { remained, unit_cost: free ? 0 : billing.writePriceUsd, allow_negative: false, negative_limit: 0 },
        storage: { data_storage: usage.data_storage, vector_storage: usage.vector_storage },
        usage: {
          projects: { max: shownLimit(limitsOf(plan, org.unlimited === true).projects), current: usage.projects },
          resources: { max: deps.resourceLimit, current: usage.resources },
          users: { max: null, current: users },
        },
        current_usage: {
          api_requests: deps.requests.count(org.key as string, window),
          writes: usage.writes,
          embedding_tokens: { used: 0 },
          window_resets_at: windowResetsAt(now),
        },
      });
    }),
  ];
}
