import type { Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { own } from '../records.js';
import { aliasFree, type CollectionNode, type CollectionsState } from './state.js';
import type { CollectionFields, CollectionsEvent } from './events.js';
import { descendantsOf, isWithin } from './tree.js';

/** What a PUT may change; a field left out (undefined) keeps its value. */
export type CollectionChanges = Partial<
  Pick<CollectionFields, 'name' | 'alias' | 'parent' | 'strict_reference' | 'auto_remove_revisions' | 'auto_remove_schema_versions'>
>;

export type UpdateCollection = Message<'UpdateCollection', { readonly env: string; readonly key: string; readonly changes: CollectionChanges }>;

const strictError = (message: string, detail: Record<string, unknown>) => new DomainError('strict_reference_error', message, detail);

/** The parent a collection moves to: it exists, and it is neither the collection nor below it. */
function checkMove(state: CollectionsState, node: CollectionNode, parentKey: string): CollectionNode {
  const parent = own(state.byKey, parentKey);
  if (!parent) throw notFound('collection_not_found', 'Parent collection');
  if (isWithin(state, parentKey, node.key)) {
    throw new DomainError('validation_error', 'A collection cannot move into itself or one of its descendants.', { parent: ['is the collection or one of its descendants'] });
  }
  return parent;
}

/**
 * Renames, re-aliases, moves or re-configures one collection (docs/decisions/0011). A move or an
 * alias change re-paths the collection and its whole subtree.
 */
export function updateCollection({ data }: UpdateCollection, state: CollectionsState): CollectionsEvent[] {
  const node = own(state.byKey, data.key);
  if (!node) throw notFound('collection_not_found', 'Collection');
  const changes = Object.fromEntries(Object.entries(data.changes).filter(([, value]) => value !== undefined)) as CollectionChanges;
  const next: CollectionNode = { ...node, ...changes };
  if (next.strict_reference !== node.strict_reference) {
    throw new DomainError('validation_error', 'strict_reference is set when a collection is created and cannot change.', { strict_reference: ['cannot be changed'] });
  }
  const moved = next.parent !== node.parent;
  const parent = next.parent === null ? null : moved ? checkMove(state, node, next.parent) : (own(state.byKey, next.parent) ?? null);
  if (moved && node.strict_reference) {
    throw strictError('A strict-reference collection cannot change its parent: its resources belong to resources of the parent collection.', {
      parent: ['a strict-reference collection keeps its parent'],
    });
  }
  if (moved && parent?.strict_reference) {
    throw strictError('A collection moved under a strict-reference collection would have to be strict-reference itself.', {
      parent: ['is a strict-reference collection'],
    });
  }
  aliasFree(state, next.parent, next.alias, node.key);
  const path = parent ? `${parent.path}.${next.alias}` : next.alias;
  const descendants = path === node.path ? [] : descendantsOf(state, node.key).map((d) => ({ key: d.key, path: `${path}${d.path.slice(node.path.length)}` }));
  return [
    {
      type: 'CollectionUpdated',
      data: { ...next, env: data.env, path, previous_parent: node.parent, descendants },
    },
  ];
}
