import type { OrganizationDetails } from '../domain/organization/events.js';
import { organization } from '../domain/organization/decider.js';
import type { PlanCode } from '../domain/plan.js';
import type { CommandBus, Handled } from './command-bus.js';
import { streams } from './streams.js';
import type { TenancyContext } from './tenancy-context.js';

type Result = Handled<unknown, unknown>;

export const updateOrganization = (bus: CommandBus, ctx: TenancyContext, changes: Partial<OrganizationDetails>): Promise<Result> =>
  bus.handle(organization, streams.organization(ctx.organization), { type: 'UpdateOrganization', data: { key: ctx.organization, ...changes } }, ctx.metadata);

/** Switches the plan; a downgrade keeps every entity and refuses new ones beyond the new quotas. */
export const changePlan = (bus: CommandBus, ctx: TenancyContext, plan: PlanCode): Promise<Result> =>
  bus.handle(organization, streams.organization(ctx.organization), { type: 'ChangePlan', data: { key: ctx.organization, plan, now: ctx.now } }, ctx.metadata);
