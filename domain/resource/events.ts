import type { Message } from '../decider.js';

export type RevisionStatus = 'draft' | 'published' | 'unpublished';

export type ResourceFields = {
  readonly env: string;
  readonly folder: string;
  readonly key: string;
  readonly name: string | null;
  readonly external_id: string | null;
  readonly resource_owner: string | null;
  readonly created_at: string;
};

export type RevisionFields = {
  readonly env: string;
  readonly folder: string;
  readonly resource: string;
  readonly key: string;
  readonly number: number;
  readonly data: Record<string, unknown>;
  /** Bytes of the JSON payload. */
  readonly size: number;
  readonly schema_version: string | null;
  readonly status: RevisionStatus;
  readonly is_valid: boolean | null;
  readonly created_at: string;
  readonly published_at: string | null;
};

export type ResourceCreated = Message<'ResourceCreated', ResourceFields>;
export type RevisionCreated = Message<'RevisionCreated', RevisionFields>;

/** Metadata only: the payload changes through revisions. */
export type ResourceUpdated = Message<'ResourceUpdated', { readonly env: string; readonly folder: string; readonly key: string; readonly name: string | null }>;

export type ResourceEvent = ResourceCreated | RevisionCreated | ResourceUpdated;

export const MAX_PAYLOAD_BYTES = 1024 * 1024;
