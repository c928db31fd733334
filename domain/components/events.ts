import type { Message } from '../decider.js';

/** A component: a reusable schema without content (reference §3.7). */
export type ComponentFields = {
  readonly env: string;
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly content_type: 'document';
  readonly created_at: string;
};

/** The last public fields of a component, kept by its delete event as the audit snapshot. */
export type ComponentSnapshot = {
  readonly name: string;
  readonly description: string;
  readonly content_type: 'document';
  readonly is_component: true;
  readonly current_version_key: string | null;
  /** Components the published version nests. */
  readonly nested_schemas: readonly string[];
};

export type ComponentCreated = Message<'ComponentCreated', ComponentFields>;
export type ComponentUpdated = Message<'ComponentUpdated', { readonly env: string; readonly key: string; readonly name: string; readonly description: string }>;
export type ComponentDeleted = Message<'ComponentDeleted', { readonly env: string; readonly key: string; readonly snapshot: ComponentSnapshot }>;

export type ComponentsEvent = ComponentCreated | ComponentUpdated | ComponentDeleted;
