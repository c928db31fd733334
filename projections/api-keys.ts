import type { ReadModelProjection } from './read-model-target.js';
import { patch, put, remove } from './read-model-target.js';

/**
 * Management and delivery API keys: the public part, the secret's hash and the bearer
 * token's hash and first characters; never a secret or a token.
 */
export const apiKeysProjection: ReadModelProjection = {
  indexes: { api_keys: [['public_key'], ['bearer_token_hash'], ['env', 'kind', 'created_at']] },
  changes: (event) => {
    switch (event.type) {
      case 'ApiKeyCreated':
        return [put('api_keys', event.data.key, { ...event.data, spend_cap_usd: event.data.spend_cap_usd ?? null, bearer_token_hash: null, bearer_token_prefix: null, deleted_at: null })];
      case 'ApiKeyUpdated':
        return [patch('api_keys', event.data.key, { description: event.data.description, role: event.data.role, spend_cap_usd: event.data.spend_cap_usd ?? null })];
      case 'ApiKeyDeleted':
        return [remove('api_keys', event.data.key)];
      case 'BearerTokenIssued':
        return [patch('api_keys', event.data.key, { bearer_token_hash: event.data.token_hash, bearer_token_prefix: event.data.token_prefix })];
      case 'BearerTokenRevoked':
        return [patch('api_keys', event.data.key, { bearer_token_hash: null, bearer_token_prefix: null })];
      default:
        return [];
    }
  },
};
