import { DomainError } from './errors.js';

/** Plan quotas and safety ceilings of the specification's Limits section, as data. */
export type PlanCode = 'free' | 'starter' | 'pro' | 'enterprise';

export type PlanLimits = {
  readonly projects: number;
  readonly environments: number;
  readonly collections: number;
  readonly delivery_apis: number;
  readonly locales: number;
  readonly api_keys: number;
  readonly roles: number;
  readonly requests_per_minute: number;
};

const UNLIMITED = Number.MAX_SAFE_INTEGER;

const pro: PlanLimits = {
  projects: 10,
  environments: 10,
  collections: 1000,
  delivery_apis: 50,
  locales: UNLIMITED,
  api_keys: 50,
  roles: 20,
  requests_per_minute: 1200,
};

export const PLANS: Readonly<Record<PlanCode, PlanLimits>> = {
  free: { projects: 1, environments: 2, collections: 50, delivery_apis: 5, locales: 2, api_keys: 5, roles: 0, requests_per_minute: 120 },
  starter: { projects: 3, environments: 3, collections: 200, delivery_apis: 10, locales: 5, api_keys: 10, roles: 5, requests_per_minute: 600 },
  pro,
  enterprise: pro,
};

/** Enterprise's custom values for the operator's own organization (docs/decisions/0348): no quota, no rate limit; the safety ceilings still hold. */
const NO_LIMITS: PlanLimits = {
  projects: UNLIMITED,
  environments: UNLIMITED,
  collections: UNLIMITED,
  delivery_apis: UNLIMITED,
  locales: UNLIMITED,
  api_keys: UNLIMITED,
  roles: UNLIMITED,
  requests_per_minute: UNLIMITED,
};

/** The limits an organization works under: its plan's, or none for an `unlimited` organization while it is on Enterprise. */
export const limitsOf = (plan: PlanCode, unlimited = false): PlanLimits => (plan === 'enterprise' && unlimited ? NO_LIMITS : PLANS[plan]);

/** Whether a limit is no limit. */
export const isUnlimited = (value: number): boolean => value >= UNLIMITED;

export const CEILINGS = {
  components: 5000,
  collections: 5000,
  schema_versions: 1000,
  fields_per_version: 1000,
} as const;

export const UPGRADE_URL = '/organizations/plan/';

/** 403 plan_limit_exceeded with the detail of the specification's Limits section. */
export function planLimitExceeded(entity: string, current: number, limit: number, upgradable: boolean): DomainError {
  const detail: Record<string, unknown> = { entity, current, limit };
  if (upgradable) detail.upgrade_url = UPGRADE_URL;
  return new DomainError('plan_limit_exceeded', `The ${entity} limit of ${limit} is reached.`, detail);
}

/** Display names and monthly prices (USD; null: by agreement) of the plans, for `GET /plans/`. */
export const PLAN_INFO: Readonly<Record<PlanCode, { readonly name: string; readonly price: number | null }>> = {
  free: { name: 'Free', price: 0 },
  starter: { name: 'Starter', price: null },
  pro: { name: 'Pro', price: null },
  enterprise: { name: 'Enterprise', price: null },
};

export const PLAN_CODES: readonly PlanCode[] = ['free', 'starter', 'pro', 'enterprise'];

/** Unlimited values are shown as null. */
export const shownLimit = (value: number): number | null => (value >= UNLIMITED ? null : value);
