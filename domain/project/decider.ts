import type { Decider, Message } from '../decider.js';
import { DomainError } from '../errors.js';

export type ProjectCreated = Message<'ProjectCreated', { key: string; organization: string; name: string; region: string; gdpr: boolean; created_at: string }>;
export type ProjectEvent = ProjectCreated;
export type CreateProject = Message<'CreateProject', ProjectCreated['data']>;

export type ProjectState = { readonly status: 'none' } | { readonly status: 'active'; readonly key: string };

export const project: Decider<ProjectState, CreateProject, ProjectEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'active', key: event.data.key }),
  decide: (command, state) => {
    if (state.status !== 'none') throw new DomainError('validation_error', 'The project exists already.');
    return [{ type: 'ProjectCreated', data: command.data }];
  },
};
