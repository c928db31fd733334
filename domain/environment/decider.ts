import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import {
  TOGGLE_INTERVAL_SECONDS,
  type EnvironmentCreated,
  type EnvironmentEvent,
  type ProtectionLevel,
} from './events.js';
import { evolveEnvironment, type ActiveEnvironment, type EnvironmentState } from './state.js';
import { environmentProtected } from './protection.js';

export type { EnvironmentCreated, EnvironmentEvent } from './events.js';
export type { EnvironmentState } from './state.js';

export type CreateEnvironment = Message<'CreateEnvironment', EnvironmentCreated['data']>;
export type UpdateEnvironment = Message<'UpdateEnvironment', { key: string; name: string }>;
export type ToggleEnvironment = Message<'ToggleEnvironment', { key: string; is_enabled: boolean; now: string }>;
export type ProtectEnvironment = Message<
  'ProtectEnvironment',
  { key: string; protection_level: ProtectionLevel; protection_reason: string | null; user: Readonly<Record<string, unknown>> | null; now: string }
>;
export type DeleteEnvironment = Message<'DeleteEnvironment', { key: string; now: string }>;
export type EnvironmentCommand = CreateEnvironment | UpdateEnvironment | ToggleEnvironment | ProtectEnvironment | DeleteEnvironment;

const active = (state: EnvironmentState): ActiveEnvironment => {
  if (state.status !== 'active') throw notFound('environment_not_found', 'Environment');
  return state;
};

const scope = (env: ActiveEnvironment) => ({ key: env.key, project: env.project, organization: env.organization });

function toggle(data: ToggleEnvironment['data'], env: ActiveEnvironment): EnvironmentEvent[] {
  if (env.protection_level === 'locked') throw environmentProtected(env.protection_level);
  if (env.is_enabled === data.is_enabled) return [];
  if (env.toggled_at !== null) {
    const elapsed = (Date.parse(data.now) - Date.parse(env.toggled_at)) / 1000;
    if (elapsed < TOGGLE_INTERVAL_SECONDS) {
      const retry_after = Math.ceil(TOGGLE_INTERVAL_SECONDS - elapsed);
      throw new DomainError('environment_toggle_error', `An environment can be enabled or disabled once per ${TOGGLE_INTERVAL_SECONDS} seconds; retry in ${retry_after} s.`, {
        last_toggled_at: env.toggled_at,
        retry_after,
      });
    }
  }
  return [{ type: 'EnvironmentToggled', data: { ...scope(env), is_enabled: data.is_enabled, toggled_at: data.now } }];
}

function remove(data: DeleteEnvironment['data'], env: ActiveEnvironment): EnvironmentEvent[] {
  if (env.protection_level !== 'none') throw environmentProtected(env.protection_level);
  if (env.is_production) {
    throw new DomainError('validation_error', 'The production environment of a project cannot be deleted; delete the project instead.', {
      is_production: ['the production environment stays while its project exists'],
    });
  }
  const snapshot = {
    name: env.name,
    host: env.host,
    project_key: env.project,
    project_id: env.project,
    customer_key: env.organization,
    block_reason: null,
    block_last_state_enabled: env.is_enabled,
    protected_by_user_uid: env.protected_by,
  };
  return [{ type: 'EnvironmentDeleted', data: { ...scope(env), deleted_at: data.now, snapshot } }];
}

/** One environment: its name, the enabled switch (once per 300 s) and its protection level. */
export const environment: Decider<EnvironmentState, EnvironmentCommand, EnvironmentEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveEnvironment,
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateEnvironment':
        if (state.status !== 'none') throw new DomainError('validation_error', 'The environment exists already.');
        return [{ type: 'EnvironmentCreated', data: command.data }];
      case 'UpdateEnvironment': {
        const env = active(state);
        if (env.protection_level === 'locked') throw environmentProtected(env.protection_level);
        return [{ type: 'EnvironmentUpdated', data: { ...scope(env), name: command.data.name } }];
      }
      case 'ToggleEnvironment':
        return toggle(command.data, active(state));
      case 'ProtectEnvironment': {
        const env = active(state);
        const { protection_level, protection_reason, user, now } = command.data;
        const on = protection_level !== 'none';
        return [{
          type: 'EnvironmentProtectionChanged',
          data: { ...scope(env), protection_level, protection_reason: on ? protection_reason : null, protected_by_user: on ? user : null, protected_at: on ? now : null },
        }];
      }
      case 'DeleteEnvironment':
        return remove(command.data, active(state));
    }
  },
};
