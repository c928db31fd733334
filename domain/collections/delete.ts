import type { Message } from '../decider.js';
import { notFound } from '../errors.js';
import { own } from '../records.js';
import type { CollectionsState } from './state.js';
import type { CollectionsEvent } from './events.js';
import { depthOf, descendantsOf } from './tree.js';

export type DeleteCollection = Message<'DeleteCollection', { readonly env: string; readonly key: string }>;

/** Deletes a collection with its whole subtree: one event per collection, deepest first (docs/decisions/0012). */
export function deleteCollection({ data }: DeleteCollection, state: CollectionsState): CollectionsEvent[] {
  const node = own(state.byKey, data.key);
  if (!node) throw notFound('collection_not_found', 'Collection');
  const subtree = [node, ...descendantsOf(state, node.key)].sort((a, b) => depthOf(b) - depthOf(a) || (a.path < b.path ? -1 : 1));
  return subtree.map((c) => ({
    type: 'CollectionDeleted',
    data: {
      env: data.env,
      key: c.key,
      parent: c.parent,
      snapshot: { name: c.name, content_type: 'document', alias: c.alias, path: c.path, strict_reference: c.strict_reference },
    },
  }));
}
