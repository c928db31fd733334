import type { BulkRemoval, ReadModelProjection } from './read-model-target.js';

/**
 * What a deleted collection takes with it from the other read models: its resources, its
 * schema versions and fields, and its delivery connections (docs/decisions/0012). Its
 * revisions go in projections/revisions.ts, the consumer that writes them.
 */
export const collectionCascadeProjection: ReadModelProjection = {
  changes: () => [],
  removals: (event): BulkRemoval[] => {
    if (event.type !== 'CollectionDeleted') return [];
    const folder = event.data.key;
    return [
      { collection: 'resources', where: { folder } },
      { collection: 'schema_versions', where: { schema_key: folder } },
      { collection: 'schema_fields', where: { schema_key: folder } },
      { collection: 'api_connections', where: { folder } },
    ];
  },
};
