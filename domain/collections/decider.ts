import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { CEILINGS, planLimitExceeded } from '../plan.js';
import type { CollectionFields, CollectionsEvent } from './events.js';

/** The collection tree of one environment: owns alias uniqueness, nesting rules and the quota. */

export type CreateCollection = Message<
  'CreateCollection',
  Omit<CollectionFields, 'path' | 'content_type'> & { readonly quota: number }
>;
export type CollectionsCommand = CreateCollection;

export type CollectionNode = Pick<
  CollectionFields,
  'key' | 'alias' | 'parent' | 'path' | 'strict_reference' | 'name' | 'auto_remove_revisions' | 'auto_remove_schema_versions'
>;

export type CollectionsState = { readonly byKey: Readonly<Record<string, CollectionNode>>; readonly count: number };

function create(command: CreateCollection, state: CollectionsState): CollectionsEvent[] {
  const { quota, ...input } = command.data;
  if (state.byKey[input.key]) throw new DomainError('validation_error', 'The collection key exists already.');
  const parent = input.parent === null ? null : state.byKey[input.parent];
  if (parent === undefined) throw notFound('collection_not_found', 'Parent collection');
  const siblings = Object.values(state.byKey).filter((c) => c.parent === input.parent);
  if (siblings.some((c) => c.alias === input.alias)) {
    throw new DomainError('validation_error', 'The alias is already used by a sibling collection.', { alias: ['must be unique among siblings'] });
  }
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

export const collections: Decider<CollectionsState, CollectionsCommand, CollectionsEvent> = {
  initialState: () => ({ byKey: {}, count: 0 }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'CollectionCreated': {
        const { key, alias, parent, path, strict_reference, name, auto_remove_revisions, auto_remove_schema_versions } = event.data;
        const node: CollectionNode = { key, alias, parent, path, strict_reference, name, auto_remove_revisions, auto_remove_schema_versions };
        return { byKey: { ...state.byKey, [key]: node }, count: state.count + 1 };
      }
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateCollection':
        return create(command, state);
    }
  },
};
