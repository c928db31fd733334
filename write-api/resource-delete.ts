import { deleteResource } from '../commands/resources.js';
import type { CommandContext } from '../commands/context.js';
import type { Position } from '../commands/ports.js';
import { DomainError } from '../domain/errors.js';
import type { WriteDeps } from './deps.js';

const gone = (error: unknown): boolean => error instanceof DomainError && error.code === 'resource_not_found';

/**
 * Deletes a resource, then its descendants in a strict-reference hierarchy, depth first.
 * Children are found through the read model once it has the parent's delete; a child
 * appended after that delete deletes itself again (commands/resources.ts, refuseOrphan).
 * Returns the position of the last delete.
 */
export async function deleteWithDescendants(deps: WriteDeps, ctx: CommandContext, folder: string, key: string): Promise<Position> {
  let last = (await deleteResource(deps.bus, ctx, folder, key, deps.resourceQuota)).position;
  await deps.projections.waitFor(last, deps.waitTimeoutMs);
  const children = await deps.readStore.collection('resources').find({ resource_owner: key });
  for (const child of children) {
    try {
      const position = await deleteWithDescendants(deps, ctx, child.folder as string, child._id);
      if (position > last) last = position;
    } catch (error) {
      if (!gone(error)) throw error;
    }
  }
  return last;
}
