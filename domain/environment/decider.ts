import type { Decider, Message } from '../decider.js';
import { DomainError } from '../errors.js';

export type EnvironmentCreated = Message<
  'EnvironmentCreated',
  { key: string; project: string; organization: string; name: string; host: string; is_production: boolean; created_at: string }
>;
export type EnvironmentEvent = EnvironmentCreated;
export type CreateEnvironment = Message<'CreateEnvironment', EnvironmentCreated['data']>;

export type EnvironmentState = { readonly status: 'none' } | { readonly status: 'active'; readonly key: string; readonly organization: string };

export const environment: Decider<EnvironmentState, CreateEnvironment, EnvironmentEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'active', key: event.data.key, organization: event.data.organization }),
  decide: (command, state) => {
    if (state.status !== 'none') throw new DomainError('validation_error', 'The environment exists already.');
    return [{ type: 'EnvironmentCreated', data: command.data }];
  },
};
