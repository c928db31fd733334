import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { planLimitExceeded } from '../plan.js';
import { regionOf } from '../regions.js';
import type { ProjectCreated, ProjectEvent } from './events.js';

export type { ProjectCreated, ProjectEvent } from './events.js';

export type CreateProject = Message<'CreateProject', ProjectCreated['data']>;
export type UpdateProject = Message<'UpdateProject', { key: string; name?: string; gdpr?: boolean }>;
export type DeleteProject = Message<'DeleteProject', { key: string; now: string }>;
/**
 * `quota`: the plan's environments per project, looked up by the handler; `existing`: the
 * environments the read model knows, sent while the project has not seeded its slots (else null).
 */
export type ReserveEnvironmentSlot = Message<
  'ReserveEnvironmentSlot',
  { project: string; environment: string; quota: number; existing: readonly string[] | null }
>;
export type ReleaseEnvironmentSlot = Message<'ReleaseEnvironmentSlot', { project: string; environment: string }>;
export type ProjectCommand = CreateProject | UpdateProject | DeleteProject | ReserveEnvironmentSlot | ReleaseEnvironmentSlot;

type ActiveProject = {
  readonly status: 'active';
  readonly key: string;
  readonly organization: string;
  readonly name: string;
  readonly region: string;
  readonly gdpr: boolean;
  readonly environments: readonly string[];
  readonly seeded: boolean;
};
export type ProjectState = { readonly status: 'none' } | ActiveProject | { readonly status: 'deleted'; readonly key: string };

const active = (state: ProjectState): ActiveProject => {
  if (state.status !== 'active') throw notFound('project_not_found', 'Project');
  return state;
};

function evolve(state: ProjectState, event: ProjectEvent): ProjectState {
  if (event.type === 'ProjectCreated') {
    const { key, organization, name, region, gdpr, production_environment } = event.data;
    return { status: 'active', key, organization, name, region, gdpr, environments: production_environment ? [production_environment] : [], seeded: production_environment !== undefined };
  }
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'ProjectUpdated':
      return { ...state, name: event.data.name, gdpr: event.data.gdpr };
    case 'ProjectDeleted':
      return { status: 'deleted', key: state.key };
    case 'EnvironmentSlotsSeeded':
      return { ...state, environments: [...new Set([...event.data.environments, ...state.environments])], seeded: true };
    case 'EnvironmentSlotReserved':
      return { ...state, environments: [...state.environments, event.data.environment] };
    case 'EnvironmentSlotReleased':
      return { ...state, environments: state.environments.filter((e) => e !== event.data.environment) };
  }
}

/** A project: its name, GDPR mode, region (fixed at creation) and its environments quota. */
export const project: Decider<ProjectState, ProjectCommand, ProjectEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateProject':
        if (state.status !== 'none') throw new DomainError('validation_error', 'The project exists already.');
        return [{ type: 'ProjectCreated', data: command.data }];
      case 'UpdateProject': {
        const p = active(state);
        return [{ type: 'ProjectUpdated', data: { key: p.key, organization: p.organization, name: command.data.name ?? p.name, gdpr: command.data.gdpr ?? p.gdpr } }];
      }
      case 'DeleteProject': {
        const p = active(state);
        const region = regionOf(p.region);
        const snapshot = { name: p.name, gdpr: p.gdpr, customer_key: p.organization, region_key: p.region, region_code: p.region, region_name: region?.name ?? p.region };
        return [{ type: 'ProjectDeleted', data: { key: p.key, organization: p.organization, environments: p.environments, deleted_at: command.data.now, snapshot } }];
      }
      case 'ReserveEnvironmentSlot': {
        const p = active(state);
        const { environment, quota, existing } = command.data;
        const seed: ProjectEvent[] = p.seeded ? [] : [{ type: 'EnvironmentSlotsSeeded', data: { project: p.key, environments: existing ?? [] } }];
        const taken = seed.reduce(evolve, p as ProjectState) as ActiveProject;
        if (taken.environments.includes(environment)) return seed;
        if (taken.environments.length >= quota) throw planLimitExceeded('environments', taken.environments.length, quota, true);
        return [...seed, { type: 'EnvironmentSlotReserved', data: { project: p.key, environment } }];
      }
      case 'ReleaseEnvironmentSlot': {
        if (state.status !== 'active' || !state.environments.includes(command.data.environment)) return [];
        return [{ type: 'EnvironmentSlotReleased', data: { project: state.key, environment: command.data.environment } }];
      }
    }
  },
};
