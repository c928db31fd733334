import type { ReadModelProjection } from './read-model-target.js';
import { patch, put, remove } from './read-model-target.js';

/** Components of each environment; `current_version` follows the publishes of their schema. */
export const componentsProjection: ReadModelProjection = {
  indexes: { components: [['env', 'created_at']] },
  changes: (event) => {
    switch (event.type) {
      case 'ComponentCreated':
        return [put('components', event.data.key, { ...event.data, current_version: null })];
      case 'ComponentUpdated':
        return [patch('components', event.data.key, { name: event.data.name, description: event.data.description })];
      case 'ComponentDeleted':
        return [remove('components', event.data.key)];
      case 'SchemaVersionPublished':
        if (event.data.schema_type !== 'component') return [];
        return [patch('components', event.data.schema_key, { current_version: event.data.version })];
      default:
        return [];
    }
  },
};
