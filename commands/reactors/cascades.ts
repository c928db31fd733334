import { DomainError } from '../../domain/errors.js';
import type { ReadCollection } from '../../projections/ports.js';
import type { CommandBus } from '../command-bus.js';
import type { CommandContext } from '../context.js';
import { dropDeletedConnections } from '../delivery-apis.js';
import type { Position } from '../ports.js';
import { releaseCollectionSlots, type ResourceQuota } from '../resource-quota.js';
import { deleteResource } from '../resources.js';

const later = (a: Position, b: Position): Position => (b > a ? b : a);

/** Already deleted, or its collection is: a resumed cascade passes it by. */
const gone = (error: unknown): boolean => error instanceof DomainError && (error.code === 'resource_not_found' || error.code === 'collection_not_found');

/**
 * What deleted collections leave on other streams: their resource slots (RESOURCE_LIMIT) and
 * every delivery connection to a collection no longer in the tree (docs/decisions/0012).
 * Idempotent: a second run finds nothing to release or drop and appends nothing.
 */
export async function afterCollectionsDeleted(bus: CommandBus, quota: ResourceQuota, ctx: CommandContext, folders: readonly string[]): Promise<Position> {
  const released = await releaseCollectionSlots(bus, quota, ctx, folders);
  const swept = await dropDeletedConnections(bus, ctx);
  return later(released?.position ?? '', swept.position);
}

/**
 * Deletes the strict-reference descendants of a deleted resource, depth first, found through
 * the read model by `resource_owner` (docs/decisions/0017). A descendant already deleted is
 * passed by, but its own descendants are still looked for, so a cascade cut off by a crash
 * finishes when it runs again. Returns the position of the last delete ('' for none).
 */
export async function deleteDescendants(bus: CommandBus, resources: ReadCollection, quota: ResourceQuota, ctx: CommandContext, owner: string): Promise<Position> {
  let last: Position = '';
  for (const child of await resources.find({ resource_owner: owner })) {
    try {
      last = later(last, (await deleteResource(bus, ctx, String(child.folder), child._id, quota)).position);
    } catch (error) {
      if (!gone(error)) throw error;
    }
    last = later(last, await deleteDescendants(bus, resources, quota, ctx, child._id));
  }
  return last;
}
