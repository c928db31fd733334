import type { ReadModelProjection } from './read-model-target.js';
import { patch, put, remove } from './read-model-target.js';

/** Resources (management view); their revisions are projections/revisions.ts. */
export const resourcesProjection: ReadModelProjection = {
  indexes: {
    resources: [['folder', 'created_at'], ['folder', 'external_id'], ['resource_owner']],
  },
  changes: (event) => {
    switch (event.type) {
      case 'ResourceCreated':
        // `...{}` first: a literal that starts with a spread and adds properties after it is slow in V8 (Node 20, docs/decisions/0323).
        return [put('resources', event.data.key, { ...{}, ...event.data, content_type: 'document', current_revision: null, vectors_size: 0 })];
      case 'ResourceUpdated':
        return [patch('resources', event.data.key, { name: event.data.name })];
      case 'RevisionCreated':
        return event.data.status === 'published' ? [patch('resources', event.data.resource, { current_revision: event.data.key })] : [];
      case 'RevisionPublished':
        return [patch('resources', event.data.resource, { current_revision: event.data.key })];
      case 'RevisionUnpublished': {
        const { resource, key } = event.data;
        return [{ collection: 'resources', id: resource, apply: (doc) => (doc && doc.current_revision === key ? { ...doc, current_revision: null } : doc) }];
      }
      case 'ResourceDeleted':
        return [remove('resources', event.data.key)];
      default:
        return [];
    }
  },
};
