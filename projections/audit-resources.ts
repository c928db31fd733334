import type { ResourceDeleted, RevisionDeleted, RevisionPublished, RevisionUnpublished } from '../domain/resource/events.js';
import { envEntry, type Entry } from './audit-entry.js';

/**
 * Audit entries of resource and revision changes beyond creation: publishing a revision
 * changes the resource's `current_revision` (resource:update); the unpublish that goes with
 * it is part of the same change (no entry); deletes carry the specification's snapshots.
 */
export function resourceEntry(event: RevisionPublished | RevisionUnpublished | RevisionDeleted | ResourceDeleted): Entry | null {
  switch (event.type) {
    case 'RevisionPublished': {
      const { env, folder, resource } = event.data;
      return envEntry(env, 'update', 'resource', resource, { folder_key: folder }, { collection_key: folder, resource_key: resource });
    }
    case 'RevisionUnpublished':
      return null;
    case 'RevisionDeleted': {
      const { env, folder, resource, key, snapshot } = event.data;
      return envEntry(env, 'delete', 'revision', key, { folder_key: folder, resource_key: resource, snapshot }, { collection_key: folder, resource_key: resource });
    }
    case 'ResourceDeleted': {
      const { env, folder, key, snapshot } = event.data;
      return envEntry(env, 'delete', 'resource', key, { folder_key: folder, snapshot }, { collection_key: folder, resource_key: key });
    }
  }
}
