import type { ApiRoute } from '../api/handler.js';
import { changePlan, updateOrganization } from '../commands/organizations.js';
import { DomainError } from '../domain/errors.js';
import { findDoc } from '../api/find-doc.js';
import type { OrganizationDetails } from '../domain/organization/events.js';
import { PLAN_CODES, type PlanCode } from '../domain/plan.js';
import type { BillingSettings } from '../domain/billing.js';
import { param } from '../api/query.js';
import { organizationView, planView } from '../api/tenancy-views.js';
import type { WriteDeps } from './deps.js';
import { afterWrite } from './respond.js';
import { validator } from './validate.js';

const text = { type: ['string', 'null'], maxLength: 255 };

const detailsBody = validator<Partial<OrganizationDetails>>({
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    legal_name: text,
    tax_num: text,
    address: text,
    city: text,
    province: text,
    country_iso: { type: ['string', 'null'], pattern: '^[A-Za-z]{2}$' },
    zip_code: { type: ['string', 'null'], maxLength: 20 },
  },
  additionalProperties: false,
});

/** PUT of the organization's details and the plan switch. */
export function organizationsWriteRoutes(deps: WriteDeps & { readonly billing: BillingSettings }): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const read = (org: string) => findDoc(deps.readStore, 'organizations', org, {}, 'not_found', 'Organization');

  routes.push({ method: 'put', path: '/organizations/:org/', handler: async (request) => {
    const ctx = request.tenancy;
    const written = await updateOrganization(deps.bus, ctx, detailsBody(request.body));
    return afterWrite(deps, {
      position: written.position,
      status: 200,
      read: async () => {
        const doc = await read(ctx.organization);
        return organizationView(doc, await deps.readStore.collection('users').get(String(doc.owner)));
      },
      fallback: () => ({ key: ctx.organization }),
    });
  } });

  routes.push({ method: 'post', path: '/organizations/:org/plan/:code/', handler: async (request) => {
    const ctx = request.tenancy;
    const code = param(request, 'code');
    if (!(PLAN_CODES as readonly string[]).includes(code)) {
      throw new DomainError('validation_error', `Unknown plan ${code}.`, { plan_code: [`must be one of ${PLAN_CODES.join(', ')}`] });
    }
    const written = await changePlan(deps.bus, ctx, code as PlanCode);
    return afterWrite(deps, {
      position: written.position,
      status: 200,
      read: async () => {
        const doc = await read(ctx.organization);
        return { active_plan: planView(doc.plan as PlanCode, deps.billing, String(doc.plan_changed_at ?? doc.created_at), doc.unlimited === true), next_plan: null };
      },
      fallback: () => ({ active_plan: planView(code as PlanCode, deps.billing, ctx.now), next_plan: null }),
    });
  } });

  return routes;
}
