import type { ReadModelProjection } from './read-model-target.js';
import { patch, put } from './read-model-target.js';

/** Resources (management view) and their revisions. */
export const resourcesProjection: ReadModelProjection = {
  indexes: {
    resources: [['folder', 'created_at'], ['folder', 'external_id']],
    revisions: [['resource', 'number']],
  },
  changes: (event) => {
    switch (event.type) {
      case 'ResourceCreated':
        return [put('resources', event.data.key, { ...event.data, content_type: 'document', current_revision: null, vectors_size: 0 })];
      case 'ResourceUpdated':
        return [patch('resources', event.data.key, { name: event.data.name })];
      case 'RevisionCreated': {
        const revision = event.data;
        const changes = [put('revisions', revision.key, { ...revision, unpublished_at: null })];
        if (revision.status === 'published') changes.push(patch('resources', revision.resource, { current_revision: revision.key }));
        return changes;
      }
      default:
        return [];
    }
  },
};
