import type { Decider, Message } from '../decider.js';
import { DomainError } from '../errors.js';
import type { PlanCode } from '../plan.js';

/** An organization: the billing entity ("customer" in the audit log). */
export type OrganizationCreated = Message<'OrganizationCreated', { key: string; name: string; plan: PlanCode; owner: string; created_at: string }>;
export type OrganizationEvent = OrganizationCreated;
export type CreateOrganization = Message<'CreateOrganization', OrganizationCreated['data']>;

export type OrganizationState = { readonly status: 'none' } | { readonly status: 'active'; readonly key: string; readonly plan: PlanCode };

export const organization: Decider<OrganizationState, CreateOrganization, OrganizationEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'active', key: event.data.key, plan: event.data.plan }),
  decide: (command, state) => {
    if (state.status !== 'none') throw new DomainError('validation_error', 'The organization exists already.');
    return [{ type: 'OrganizationCreated', data: command.data }];
  },
};
