import type { ReadModelProjection } from './read-model-target.js';
import { patch, put, remove } from './read-model-target.js';

/** Delivery APIs and their collection connections. */

export const connectionId = (api: string, folder: string): string => `${api}:${folder}`;

export const deliveryApisProjection: ReadModelProjection = {
  indexes: { apis: [['env', 'created_at']], api_connections: [['api', 'created_at']] },
  changes: (event) => {
    switch (event.type) {
      case 'ApiCreated':
        return [put('apis', event.data.key, { ...event.data })];
      case 'ApiUpdated':
        return [patch('apis', event.data.key, { ...event.data })];
      case 'ApiDeleted':
        return [remove('apis', event.data.key)];
      case 'CollectionConnected': {
        const { auto: _auto, ...connection } = event.data;
        return [put('api_connections', connectionId(connection.api, connection.folder), connection)];
      }
      case 'ConnectionUpdated':
        return [patch('api_connections', connectionId(event.data.api, event.data.folder), { ...event.data })];
      case 'CollectionDisconnected':
        return [remove('api_connections', connectionId(event.data.api, event.data.folder))];
      default:
        return [];
    }
  },
};
