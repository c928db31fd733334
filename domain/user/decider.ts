import type { Decider, Message } from '../decider.js';
import { DomainError } from '../errors.js';

export type UserCreated = Message<
  'UserCreated',
  { key: string; organization: string; email: string; first_name: string; last_name: string; is_admin: boolean; created_at: string }
>;
export type UserEvent = UserCreated;
export type CreateUser = Message<'CreateUser', UserCreated['data']>;

export type UserState = { readonly status: 'none' } | { readonly status: 'active'; readonly key: string };

export const user: Decider<UserState, CreateUser, UserEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'active', key: event.data.key }),
  decide: (command, state) => {
    if (state.status !== 'none') throw new DomainError('validation_error', 'The user exists already.');
    return [{ type: 'UserCreated', data: command.data }];
  },
};
