import type { ReadModelProjection } from './read-model-target.js';
import { put, remove } from './read-model-target.js';

/**
 * Scheduled publishes, one document per scheduled revision:
 * `{revision, env, folder, resource, publish_at}`, gone once it is published, cancelled or
 * deleted. The same projection feeds two consumers (docs/decisions/0357): the read models'
 * `schedules` (`GET /v1/:env/schedules/`) and the scheduler's own `scheduler_due`, which it
 * fires from, so that what it fires never waits for the read models, nor they for it.
 */
/** The scheduler's own table of what is due. */
export const SCHEDULER_DUE = 'scheduler_due';

export function schedulesProjection(collection: string): ReadModelProjection {
  return {
    indexes: { [collection]: [['env', 'publish_at'], ['publish_at']] },
    changes: (event) => {
      switch (event.type) {
        case 'RevisionScheduled': {
          const { env, folder, resource, key, publish_at } = event.data;
          return [put(collection, key, { revision: key, env, folder, resource, publish_at })];
        }
        case 'RevisionScheduleCancelled':
        case 'RevisionPublished':
        case 'RevisionDeleted':
          return [remove(collection, event.data.key)];
        case 'ResourceDeleted':
          return event.data.revisions.map((key) => remove(collection, key));
        default:
          return [];
      }
    },
    removals: (event) => (event.type === 'CollectionDeleted' ? [{ collection, where: { folder: event.data.key } }] : []),
  };
}
