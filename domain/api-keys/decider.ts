import type { Decider, Message } from '../decider.js';
import { DomainError } from '../errors.js';
import { planLimitExceeded } from '../plan.js';

/** The API keys of one environment, management and delivery together: they share one quota. */

export type KeyKind = 'management' | 'delivery';

export type ApiKeyFields = {
  readonly env: string;
  readonly kind: KeyKind;
  readonly key: string;
  readonly description: string;
  readonly role: string | null;
  /** Base64 compressed P-256 public key. */
  readonly public_key: string;
  /** Hex SHA-256 of the secret key; the secret itself is shown once and never stored. */
  readonly secret_hash: string;
  readonly created_at: string;
};

export type ApiKeyCreated = Message<'ApiKeyCreated', ApiKeyFields>;
export type ApiKeysEvent = ApiKeyCreated;

export type CreateApiKey = Message<'CreateApiKey', ApiKeyFields & { readonly quota: number }>;
export type ApiKeysCommand = CreateApiKey;

export type ApiKeysState = { readonly keys: readonly string[] };

export const apiKeys: Decider<ApiKeysState, ApiKeysCommand, ApiKeysEvent> = {
  initialState: () => ({ keys: [] }),
  evolve: (state, event) => ({ keys: [...state.keys, event.data.key] }),
  decide: (command, state) => {
    const { quota, ...key } = command.data;
    if (state.keys.includes(key.key)) throw new DomainError('validation_error', 'The key exists already.');
    if (state.keys.length >= quota) throw planLimitExceeded('api_keys', state.keys.length, quota, true);
    return [{ type: 'ApiKeyCreated', data: key }];
  },
};
