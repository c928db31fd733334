import type { Position } from '../commands/ports.js';
import type { ResourceState } from '../domain/resource/decider.js';
import { withVectorsSize } from '../api/vectors-size.js';
import { resourceView } from '../api/views.js';
import type { WriteDeps } from './deps.js';
import type { ApiResult } from '../api/handler.js';
import { afterWrite } from './respond.js';

/** The resource object as the decider left it: the answer when the read side is not there yet. */
function stateView(state: ResourceState): Record<string, unknown> | null {
  if (state.status !== 'active') return null;
  const { key, name, folder, external_id, created_at, resource_owner, current } = state;
  return resourceView({ _id: key, key, name, folder, content_type: 'document', external_id, created_at, resource_owner, current_revision: current, vectors_size: 0 });
}

/**
 * Answers a resource write: `ETag` names the current revision after the write; with
 * `wait` the resource as the read model has it (201/200), else 202 right after the append.
 */
export async function answerResource(
  deps: WriteDeps,
  written: { readonly position: Position; readonly state: unknown; readonly key: string },
  status: number,
  wait = true,
): Promise<ApiResult> {
  const state = written.state as ResourceState;
  const headers = state.status === 'active' && state.current !== null ? { ETag: `"${state.current}"` } : undefined;
  const fallback = () => stateView(state) ?? { key: written.key };
  if (!wait) return { status: 202, body: fallback(), headers };
  const answer = await afterWrite(deps, {
    position: written.position,
    status,
    read: async () => {
      // The document as the batch that applied the write left it, when the read models still hold it (docs/decisions/0296).
      const held = deps.recentResources?.get(written.key);
      const doc = held === undefined ? await deps.readStore.collection('resources').get(written.key) : held;
      if (!doc) return null;
      return deps.searchIndex ? withVectorsSize(deps.searchIndex, String(doc.env), resourceView(doc)) : resourceView(doc);
    },
    fallback,
  });
  return { ...answer, headers };
}
