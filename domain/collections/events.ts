import type { Message } from '../decider.js';

export type CollectionFields = {
  readonly env: string;
  readonly key: string;
  readonly name: string;
  readonly alias: string;
  readonly parent: string | null;
  /** Dot-joined aliases from the root, e.g. `blog.articles`. */
  readonly path: string;
  readonly content_type: 'document';
  readonly strict_reference: boolean;
  readonly auto_remove_revisions: number | null;
  readonly auto_remove_schema_versions: number | null;
  /** Embedding settings, fixed at creation (docs/decisions/0114); absent in events stored before them. */
  readonly embedding_model?: string | null;
  readonly embedding_dimension?: number | null;
  readonly created_at: string;
};

/** The public fields a delete keeps as its audit snapshot (specification, Delete snapshots). */
export type CollectionSnapshot = Pick<CollectionFields, 'name' | 'content_type' | 'alias' | 'path' | 'strict_reference'>;

/** A collection's new path after a move or an alias change. */
export type MovedPath = { readonly key: string; readonly path: string };

export type CollectionCreated = Message<'CollectionCreated', CollectionFields>;

/**
 * The collection after a PUT. `previous_parent` is its parent before; `descendants` holds the
 * new path of every descendant when the collection's own path changed (else []).
 */
export type CollectionUpdated = Message<
  'CollectionUpdated',
  Omit<CollectionFields, 'content_type' | 'created_at'> & { readonly previous_parent: string | null; readonly descendants: readonly MovedPath[] }
>;

/** One per collection of a deleted subtree, deepest first. */
export type CollectionDeleted = Message<
  'CollectionDeleted',
  { readonly env: string; readonly key: string; readonly parent: string | null; readonly snapshot: CollectionSnapshot }
>;

export type CollectionsEvent = CollectionCreated | CollectionUpdated | CollectionDeleted;
