import { Router } from 'express';
import { windowOf, windowResetsAt, type BillingSettings } from '../domain/billing.js';
import { notFound } from '../domain/errors.js';
import { limitsOf, PLAN_CODES, shownLimit, type PlanCode } from '../domain/plan.js';
import { REGIONS } from '../domain/regions.js';
import { usageOf } from '../projections/usage.js';
import type { ReadDeps } from './deps.js';
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
export function organizationsReadRouter(deps: OrganizationReadDeps): Router {
  const router = Router();
  const { readStore } = deps;

  const organization = async (key: string) => {
    const doc = await readStore.collection('organizations').get(key);
    if (!doc) throw notFound('not_found', 'Organization');
    return doc;
  };
  const view = async (key: string) => {
    const doc = await organization(key);
    return organizationView(doc, await readStore.collection('users').get(String(doc.owner)));
  };

  router.get('/organizations/', async (_req, res) => {
    res.json([await view(userPrincipal(res).organization)]);
  });

  router.get('/organizations/:org/', async (req, res) => {
    res.json(await view(organizationAdmin(req, res).organization));
  });

  router.get('/regions/', (_req, res) => {
    res.json(REGIONS);
  });

  router.get('/plans/', (_req, res) => {
    res.json(PLAN_CODES.map((code) => planView(code, deps.billing)));
  });

  router.get('/organizations/:org/plan/', async (req, res) => {
    const doc = await organization(organizationAdmin(req, res).organization);
    const since = String(doc.plan_changed_at ?? doc.created_at);
    res.json({ active_plan: planView(doc.plan as PlanCode, deps.billing, since, doc.unlimited === true), next_plan: null });
  });

  router.get('/organizations/:org/usage/', async (req, res) => {
    const org = await organization(organizationAdmin(req, res).organization);
    const now = new Date().toISOString();
    const window = windowOf(now);
    const [usage, users] = await Promise.all([usageOf(readStore, org.key as string, window), readStore.collection('users').count({ organization: org.key as string })]);
    const plan = org.plan as PlanCode;
    const free = plan === 'free';
    const { billing } = deps;
    const remained = free
      ? Math.max(0, billing.freeWrites - usage.writes)
      : billing.spendCapUsd === null || billing.writePriceUsd === 0
        ? null
        : Math.max(0, Math.floor(billing.spendCapUsd / billing.writePriceUsd) - usage.writes);
    res.json({
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
  });

  return router;
}
