import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { planLimitExceeded } from '../plan.js';
import { has, own } from '../records.js';
import type { ApiKeyFields, ApiKeysEvent, KeyKind } from './events.js';

export type { ApiKeyFields, ApiKeysEvent, KeyKind } from './events.js';

/** The API keys of one environment, management and delivery together: they share one quota. */

/** `roleFound`: the handler looked the role up in the roles stream (a role of the same kind). */
type RoleCheck = { readonly roleFound: boolean };
type OfKey = { readonly env: string; readonly kind: KeyKind; readonly key: string };

export type CreateApiKey = Message<'CreateApiKey', ApiKeyFields & RoleCheck & { readonly quota: number }>;
/** `description`, `role` or `spend_cap_usd` left out (undefined) keep their values. */
export type UpdateApiKey = Message<'UpdateApiKey', OfKey & RoleCheck & { readonly description?: string; readonly role?: string | null; readonly spend_cap_usd?: number | null }>;
export type DeleteApiKey = Message<'DeleteApiKey', OfKey>;
export type IssueBearerToken = Message<'IssueBearerToken', OfKey & { readonly token_hash: string; readonly token_prefix: string; readonly issued_at: string }>;
export type RevokeBearerToken = Message<'RevokeBearerToken', OfKey>;
export type ApiKeysCommand = CreateApiKey | UpdateApiKey | DeleteApiKey | IssueBearerToken | RevokeBearerToken;

export type KeyState = {
  readonly kind: KeyKind;
  readonly description: string;
  readonly role: string | null;
  readonly public_key: string;
  readonly has_token: boolean;
  /** Most USD the key's writes may spend per billing cycle; null: no cap of its own. */
  readonly spend_cap_usd: number | null;
};

/** Live keys only: a deleted key frees its slot of the quota. */
export type ApiKeysState = { readonly keys: Readonly<Record<string, KeyState>> };

const noRole = (): DomainError => new DomainError('validation_error', 'The role does not exist.', { role: ['no such role'] });

function keyOf(state: ApiKeysState, kind: KeyKind, key: string): KeyState {
  const found = own(state.keys, key);
  if (!found || found.kind !== kind) throw notFound('not_found', 'API key');
  return found;
}

function decide(command: ApiKeysCommand, state: ApiKeysState): ApiKeysEvent[] {
  switch (command.type) {
    case 'CreateApiKey': {
      const { quota, roleFound, ...key } = command.data;
      if (has(state.keys, key.key)) throw new DomainError('validation_error', 'The key exists already.');
      if (key.role !== null && !roleFound) throw noRole();
      const count = Object.keys(state.keys).length;
      if (count >= quota) throw planLimitExceeded('api_keys', count, quota, true);
      return [{ type: 'ApiKeyCreated', data: key }];
    }
    case 'UpdateApiKey': {
      const { env, kind, key, roleFound } = command.data;
      const current = keyOf(state, kind, key);
      const role = command.data.role === undefined ? current.role : command.data.role;
      if (command.data.role !== undefined && role !== null && !roleFound) throw noRole();
      const spend_cap_usd = command.data.spend_cap_usd === undefined ? current.spend_cap_usd : command.data.spend_cap_usd;
      return [{ type: 'ApiKeyUpdated', data: { env, kind, key, description: command.data.description ?? current.description, role, spend_cap_usd } }];
    }
    case 'DeleteApiKey': {
      const { env, kind, key } = command.data;
      const current = keyOf(state, kind, key);
      return [{ type: 'ApiKeyDeleted', data: { env, kind, key, snapshot: { description: current.description, public_key: current.public_key, role_key: current.role } } }];
    }
    case 'IssueBearerToken': {
      const current = keyOf(state, command.data.kind, command.data.key);
      return [{ type: 'BearerTokenIssued', data: { ...command.data, role: current.role } }];
    }
    case 'RevokeBearerToken': {
      const current = keyOf(state, command.data.kind, command.data.key);
      if (!current.has_token) throw notFound('not_found', 'Bearer token');
      return [{ type: 'BearerTokenRevoked', data: { ...command.data, role: current.role } }];
    }
  }
}

function evolve(state: ApiKeysState, event: ApiKeysEvent): ApiKeysState {
  const { key } = event.data;
  const current = own(state.keys, key);
  switch (event.type) {
    case 'ApiKeyCreated': {
      const { kind, description, role, public_key } = event.data;
      return { keys: { ...state.keys, [key]: { kind, description, role, public_key, has_token: false, spend_cap_usd: event.data.spend_cap_usd ?? null } } };
    }
    case 'ApiKeyDeleted': {
      const { [key]: _gone, ...keys } = state.keys;
      return { keys };
    }
    default:
      if (!current) return state;
      if (event.type === 'ApiKeyUpdated') {
        const { description, role } = event.data;
        return { keys: { ...state.keys, [key]: { ...current, description, role, spend_cap_usd: event.data.spend_cap_usd ?? null } } };
      }
      return { keys: { ...state.keys, [key]: { ...current, has_token: event.type === 'BearerTokenIssued' } } };
  }
}

export const apiKeys: Decider<ApiKeysState, ApiKeysCommand, ApiKeysEvent> = {
  initialState: () => ({ keys: {} }),
  evolve,
  decide,
};
