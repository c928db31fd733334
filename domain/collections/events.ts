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
  readonly created_at: string;
};

export type CollectionCreated = Message<'CollectionCreated', CollectionFields>;

export type CollectionsEvent = CollectionCreated;
