import { DomainError } from '../errors.js';
import type { CollectionFields } from './events.js';

/** The state of an environment's collection tree, shared by its decider, tree and update code. */

export type CollectionNode = Pick<
  CollectionFields,
  'key' | 'alias' | 'parent' | 'path' | 'strict_reference' | 'name' | 'auto_remove_revisions' | 'auto_remove_schema_versions'
>;

export type CollectionsState = { readonly byKey: Readonly<Record<string, CollectionNode>>; readonly count: number };

/** 422 validation_error when a collection other than `except` under `parent` uses `alias`. */
export function aliasFree(state: CollectionsState, parent: string | null, alias: string, except: string | null): void {
  const taken = Object.values(state.byKey).some((c) => c.parent === parent && c.alias === alias && c.key !== except);
  if (taken) throw new DomainError('validation_error', 'The alias is already used by a sibling collection.', { alias: ['must be unique among siblings'] });
}
