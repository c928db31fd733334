import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { CEILINGS, planLimitExceeded } from '../plan.js';
import { has, own } from '../records.js';
import { deleteCollection, type DeleteCollection } from './delete.js';
import type { CollectionFields, CollectionsEvent } from './events.js';
import { aliasFree, type CollectionNode, type CollectionsState } from './state.js';
import { updateCollection, type UpdateCollection } from './update.js';

/** The collection tree of one environment: owns alias uniqueness, nesting rules and the quota. */

export type CreateCollection = Message<
  'CreateCollection',
  Omit<CollectionFields, 'path' | 'content_type'> & { readonly quota: number }
>;
export type { DeleteCollection } from './delete.js';
export type { UpdateCollection } from './update.js';
export type CollectionsCommand = CreateCollection | UpdateCollection | DeleteCollection;
export type { CollectionNode, CollectionsState } from './state.js';

function create(command: CreateCollection, state: CollectionsState): CollectionsEvent[] {
  const { quota, ...input } = command.data;
  if (has(state.byKey, input.key)) throw new DomainError('validation_error', 'The collection key exists already.');
  const parent = input.parent === null ? null : own(state.byKey, input.parent);
  if (parent === undefined) throw notFound('collection_not_found', 'Parent collection');
  aliasFree(state, input.parent, input.alias, null);
  if (input.strict_reference && parent === null) {
    throw new DomainError('validation_error', 'Only a nested collection can use strict references.', { strict_reference: ['requires a parent'] });
  }
  if (parent?.strict_reference && !input.strict_reference) {
    throw new DomainError('validation_error', 'A collection inside a strict-reference collection is strict too.', { strict_reference: ['must be true'] });
  }
  if (state.count >= quota) throw planLimitExceeded('collections', state.count, quota, true);
  if (state.count >= CEILINGS.collections) throw planLimitExceeded('collections', state.count, CEILINGS.collections, false);
  const path = parent ? `${parent.path}.${input.alias}` : input.alias;
  return [{ type: 'CollectionCreated', data: { ...input, path, content_type: 'document' } }];
}

const nodeOf = (data: CollectionNode): CollectionNode => {
  const { key, alias, parent, path, strict_reference, name, auto_remove_revisions, auto_remove_schema_versions } = data;
  return { key, alias, parent, path, strict_reference, name, auto_remove_revisions, auto_remove_schema_versions };
};

/**
 * Applies events on one working copy of the tree (a Map, so any key is safe) and freezes it
 * back into a record once: replaying 5,000 collections copies the tree once, not 5,000 times.
 */
function evolveMany(state: CollectionsState, events: readonly CollectionsEvent[]): CollectionsState {
  const byKey = new Map(Object.entries(state.byKey));
  let count = state.count;
  for (const event of events) {
    switch (event.type) {
      case 'CollectionCreated':
        byKey.set(event.data.key, nodeOf(event.data));
        count++;
        break;
      case 'CollectionUpdated':
        byKey.set(event.data.key, nodeOf(event.data));
        for (const moved of event.data.descendants) {
          const node = byKey.get(moved.key);
          if (node) byKey.set(moved.key, { ...node, path: moved.path });
        }
        break;
      case 'CollectionDeleted':
        if (byKey.delete(event.data.key)) count--;
        break;
    }
  }
  return { byKey: Object.fromEntries(byKey), count };
}

const evolve = (state: CollectionsState, event: CollectionsEvent): CollectionsState => evolveMany(state, [event]);

export const collections: Decider<CollectionsState, CollectionsCommand, CollectionsEvent> = {
  initialState: () => ({ byKey: {}, count: 0 }),
  evolve,
  evolveMany,
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateCollection':
        return create(command, state);
      case 'UpdateCollection':
        return updateCollection(command, state);
      case 'DeleteCollection':
        return deleteCollection(command, state);
    }
  },
};
