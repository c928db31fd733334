import type { ReadModelProjection } from './read-model-target.js';
import { put } from './read-model-target.js';

/** Delivery APIs and their collection connections. */

export const connectionId = (api: string, folder: string): string => `${api}:${folder}`;

export const deliveryApisProjection: ReadModelProjection = {
  indexes: { apis: [['env', 'created_at']], api_connections: [['api', 'created_at']] },
  changes: (event) => {
    switch (event.type) {
      case 'ApiCreated':
        return [put('apis', event.data.key, { ...event.data })];
      case 'CollectionConnected':
        return [put('api_connections', connectionId(event.data.api, event.data.folder), { ...event.data, unscoped_levels: [], unscoped_ancestors: [] })];
      default:
        return [];
    }
  },
};
