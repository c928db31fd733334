import type { ReadModelProjection } from './read-model-target.js';
import { put } from './read-model-target.js';

/** Management and delivery API keys (public part and secret hash; never the secret). */
export const apiKeysProjection: ReadModelProjection = {
  indexes: { api_keys: [['public_key'], ['env', 'kind', 'created_at']] },
  changes: (event) => {
    switch (event.type) {
      case 'ApiKeyCreated':
        return [put('api_keys', event.data.key, { ...event.data, deleted_at: null })];
      default:
        return [];
    }
  },
};
