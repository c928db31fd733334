import type { BulkRemoval, ReadModelProjection } from './read-model-target.js';
import { patch, put, remove } from './read-model-target.js';

/**
 * Revisions with their payloads, one document per revision in the `revisions` collection:
 * `{key, env, folder, resource, number, data, size, schema_version, status, is_valid,
 * created_at, published_at, unpublished_at}`. Deleted revisions (and every revision of a
 * deleted resource) are removed. It runs as its own consumer (infra/service.ts), so a
 * payload can lag behind the resource that points at it: `data/` answers 202 meanwhile.
 * A deleted collection takes its revisions with it here, in the same consumer, so a
 * lagging batch cannot write them back after the removal.
 */
export const revisionsProjection: ReadModelProjection = {
  indexes: { revisions: [['resource', 'number'], ['folder', 'status']] },
  changes: (event) => {
    switch (event.type) {
      case 'RevisionCreated':
        return [put('revisions', event.data.key, { ...{}, ...event.data, unpublished_at: null })]; // `...{}`: docs/decisions/0323
      case 'RevisionPublished':
        return [
          {
            collection: 'revisions',
            id: event.data.key,
            // A schedule ends with the publish (the field is only written when there was one).
            apply: (current) =>
              current
                ? { ...current, status: 'published', published_at: event.data.published_at, unpublished_at: null, ...(current.scheduled_publish_at ? { scheduled_publish_at: null } : {}) }
                : null,
          },
        ];
      case 'RevisionScheduled':
        return [patch('revisions', event.data.key, { scheduled_publish_at: event.data.publish_at })];
      case 'RevisionScheduleCancelled':
        return [patch('revisions', event.data.key, { scheduled_publish_at: null })];
      case 'RevisionUnpublished':
        return [patch('revisions', event.data.key, { status: 'unpublished', unpublished_at: event.data.unpublished_at })];
      case 'RevisionDeleted':
        return [remove('revisions', event.data.key)];
      case 'RevisionUpdated': {
        const { data, size, schema_version, is_valid } = event.data;
        return [patch('revisions', event.data.key, { data, size, schema_version, is_valid })];
      }
      case 'ResourceDeleted':
        return event.data.revisions.map((key) => remove('revisions', key));
      default:
        return [];
    }
  },
  removals: (event): BulkRemoval[] => (event.type === 'CollectionDeleted' ? [{ collection: 'revisions', where: { folder: event.data.key } }] : []),
};
