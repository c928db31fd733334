import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { limitsOf, planLimitExceeded, type PlanCode } from '../plan.js';
import type { OrganizationCreated, OrganizationDetails, OrganizationEvent } from './events.js';

export type { OrganizationCreated, OrganizationEvent } from './events.js';

export type CreateOrganization = Message<'CreateOrganization', OrganizationCreated['data']>;
export type UpdateOrganization = Message<'UpdateOrganization', { key: string } & Partial<OrganizationDetails>>;
export type ChangePlan = Message<'ChangePlan', { key: string; plan: PlanCode; now: string }>;
/**
 * Counted against the projects quota of the organization's own plan. `existing`: the projects
 * the read model knows, sent while the organization has not seeded its slots yet (else null).
 */
export type ReserveProjectSlot = Message<'ReserveProjectSlot', { organization: string; project: string; existing: readonly string[] | null }>;
export type ReleaseProjectSlot = Message<'ReleaseProjectSlot', { organization: string; project: string }>;
export type OrganizationCommand = CreateOrganization | UpdateOrganization | ChangePlan | ReserveProjectSlot | ReleaseProjectSlot;

type ActiveOrganization = {
  readonly status: 'active';
  readonly key: string;
  readonly plan: PlanCode;
  /** Enterprise's custom values are no limits (docs/decisions/0348). */
  readonly unlimited: boolean;
  readonly details: OrganizationDetails;
  readonly projects: readonly string[];
  readonly seeded: boolean;
};
export type OrganizationState = { readonly status: 'none' } | ActiveOrganization;

const EMPTY_DETAILS = { legal_name: null, tax_num: null, address: null, city: null, province: null, country_iso: null, zip_code: null };

const active = (state: OrganizationState): ActiveOrganization => {
  if (state.status !== 'active') throw notFound('not_found', 'Organization');
  return state;
};

function evolve(state: OrganizationState, event: OrganizationEvent): OrganizationState {
  if (event.type === 'OrganizationCreated') {
    return { status: 'active', key: event.data.key, plan: event.data.plan, unlimited: event.data.unlimited === true, details: { ...EMPTY_DETAILS, name: event.data.name }, projects: [], seeded: false };
  }
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'OrganizationUpdated': {
      const { key: _key, ...details } = event.data;
      return { ...state, details };
    }
    case 'PlanChanged':
      return { ...state, plan: event.data.plan };
    case 'ProjectSlotsSeeded':
      return { ...state, projects: [...new Set([...event.data.projects, ...state.projects])], seeded: true };
    case 'ProjectSlotReserved':
      return { ...state, projects: [...state.projects, event.data.project] };
    case 'ProjectSlotReleased':
      return { ...state, projects: state.projects.filter((p) => p !== event.data.project) };
  }
}

/**
 * The organization: the billing entity ("customer" in the audit log). It owns its plan and
 * the projects quota, so a plan change and a project create are decided on one stream.
 */
export const organization: Decider<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateOrganization':
        if (state.status !== 'none') throw new DomainError('validation_error', 'The organization exists already.');
        return [{ type: 'OrganizationCreated', data: command.data }];
      case 'UpdateOrganization': {
        const org = active(state);
        const { key: _key, ...changes } = command.data;
        return [{ type: 'OrganizationUpdated', data: { key: org.key, ...org.details, ...changes } }];
      }
      case 'ChangePlan': {
        const org = active(state);
        if (org.plan === command.data.plan) return [];
        return [{ type: 'PlanChanged', data: { key: org.key, plan: command.data.plan, previous: org.plan, changed_at: command.data.now } }];
      }
      case 'ReserveProjectSlot': {
        const org = active(state);
        const { project, existing } = command.data;
        const seed: OrganizationEvent[] = org.seeded ? [] : [{ type: 'ProjectSlotsSeeded', data: { organization: org.key, projects: existing ?? [] } }];
        const taken = seed.reduce(evolve, org as OrganizationState) as ActiveOrganization;
        if (taken.projects.includes(project)) return seed;
        const quota = limitsOf(org.plan, org.unlimited).projects;
        if (taken.projects.length >= quota) throw planLimitExceeded('projects', taken.projects.length, quota, true);
        return [...seed, { type: 'ProjectSlotReserved', data: { organization: org.key, project } }];
      }
      case 'ReleaseProjectSlot':
        if (state.status !== 'active' || !state.projects.includes(command.data.project)) return [];
        return [{ type: 'ProjectSlotReleased', data: { organization: state.key, project: command.data.project } }];
    }
  },
};
