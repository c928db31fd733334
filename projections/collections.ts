import type { ReadModelProjection } from './read-model-target.js';
import { put } from './read-model-target.js';

/** The collection tree of each environment. */
export const collectionsProjection: ReadModelProjection = {
  indexes: { collections: [['env', 'created_at'], ['env', 'path']] },
  changes: (event) => {
    switch (event.type) {
      case 'CollectionCreated':
        return [put('collections', event.data.key, { ...event.data })];
      default:
        return [];
    }
  },
};
