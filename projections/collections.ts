import type { ReadModelProjection } from './read-model-target.js';
import { patch, put, remove } from './read-model-target.js';

/** The collection tree of each environment. */
export const collectionsProjection: ReadModelProjection = {
  indexes: { collections: [['env', 'created_at'], ['env', 'path']] },
  changes: (event) => {
    switch (event.type) {
      case 'CollectionCreated':
        return [put('collections', event.data.key, { ...event.data })];
      case 'CollectionUpdated': {
        const { previous_parent: _previous, descendants, ...fields } = event.data;
        return [patch('collections', fields.key, fields), ...descendants.map((d) => patch('collections', d.key, { path: d.path }))];
      }
      case 'CollectionDeleted':
        return [remove('collections', event.data.key)];
      default:
        return [];
    }
  },
};
