import type { BillingSettings } from '../domain/billing.js';
import { CEILINGS, limitsOf, PLAN_INFO, shownLimit, type PlanCode } from '../domain/plan.js';
import { regionOf, type Region } from '../domain/regions.js';
import { COMPONENT_INHERITANCE_DEPTH } from '../domain/schema/publish-rules.js';
import type { Doc } from '../projections/ports.js';

/** Organizations, projects, environments and plans shaped as the product's client libraries read them. */

const value = (doc: Doc | null, field: string): unknown => (doc?.[field] === undefined ? null : doc[field]);

export const userSummary = (user: Doc | null) =>
  user ? { key: user.key, email: user.email, first_name: user.first_name, last_name: user.last_name, full_name: user.full_name } : null;

export const organizationView = (doc: Doc, owner: Doc | null) => ({
  key: doc.key,
  name: doc.name,
  owner: userSummary(owner),
  tax_num: value(doc, 'tax_num'),
  city: value(doc, 'city'),
  province: value(doc, 'province'),
  address: value(doc, 'address'),
  country_iso: value(doc, 'country_iso'),
  zip_code: value(doc, 'zip_code'),
  legal_name: value(doc, 'legal_name'),
  created_at: doc.created_at,
  block_dt: null,
  block_reason: null,
  is_blocked: false,
});

const PROTECTION_DISPLAY: Readonly<Record<string, string>> = { none: 'None', read_only: 'Read only', locked: 'Locked' };

export const environmentView = (doc: Doc) => ({
  key: doc.key,
  name: doc.name,
  project: doc.project,
  host: doc.host,
  has_custom_cname: doc.has_custom_cname === true,
  is_enabled: doc.is_enabled !== false,
  is_production: doc.is_production === true,
  protection_level: value(doc, 'protection_level') ?? 'none',
  protection_level_display: PROTECTION_DISPLAY[String(doc.protection_level ?? 'none')] ?? 'None',
  protected_by_user: value(doc, 'protected_by_user'),
  protected_at: value(doc, 'protected_at'),
  protection_reason: value(doc, 'protection_reason'),
  created_at: doc.created_at,
});

const regionView = (code: string): Region => regionOf(code) ?? { location: code, name: code, code };

export const projectView = (doc: Doc, environments: readonly Doc[]) => ({
  key: doc.key,
  name: doc.name,
  organization: doc.organization,
  region: regionView(String(doc.region)),
  environments: environments.map(environmentView),
  gdpr: doc.gdpr === true,
  created_at: doc.created_at,
});

/** A plan object; `since` is when the organization switched to it (for its active plan). */
export function planView(code: PlanCode, billing: BillingSettings, since: string | null = null, unlimited = false) {
  const limits = limitsOf(code, unlimited);
  const paid = code !== 'free';
  return {
    code,
    name: PLAN_INFO[code].name,
    price: PLAN_INFO[code].price,
    from: since,
    to: null,
    transferred: false,
    limits: {
      units_included: paid ? null : billing.freeWrites,
      projects: shownLimit(limits.projects),
      environments: shownLimit(limits.environments),
      folders: shownLimit(limits.collections),
      resources: null,
      users: null,
      components: CEILINGS.components,
      allow_negative: false,
      negative_limit: 0,
      unit_cost: paid ? billing.writePriceUsd : 0,
      api_keys_max_count: shownLimit(limits.api_keys),
      roles_max_count: shownLimit(limits.roles),
      locales_max_count: shownLimit(limits.locales),
      schemas_max_count: CEILINGS.schema_versions,
      schemas_fields_max_count: CEILINGS.fields_per_version,
      flux_api_max_count: shownLimit(limits.delivery_apis),
      max_component_inheritance_depth: COMPONENT_INHERITANCE_DEPTH,
      requests_per_minute: shownLimit(limits.requests_per_minute),
    },
  };
}
