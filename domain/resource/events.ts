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

/** Which revision of which resource an event is about. */
type RevisionRef = { readonly env: string; readonly folder: string; readonly resource: string; readonly key: string };

/** The specification's delete snapshots (Events, "Delete snapshots"). */
export type ResourceSnapshot = {
  readonly name: string | null;
  readonly content_type: 'document';
  readonly document_id: string;
  readonly resource_owner_key: string | null;
  readonly current_revision_key: string | null;
};
export type RevisionSnapshot = {
  readonly number: number;
  readonly size: number;
  readonly status: RevisionStatus;
  readonly is_valid: boolean | null;
  readonly version_key: string | null;
};

export type ResourceCreated = Message<'ResourceCreated', ResourceFields>;
/** A new revision; `published` only as the first revision of a resource created with mode=instant. */
export type RevisionCreated = Message<'RevisionCreated', RevisionFields>;
/** The revision becomes the resource's current one; `data` is its payload, for the delivery index. */
export type RevisionPublished = Message<'RevisionPublished', RevisionRef & { readonly published_at: string; readonly data: Record<string, unknown> }>;
/** The revision stops being current (another one is published right after it). */
export type RevisionUnpublished = Message<'RevisionUnpublished', RevisionRef & { readonly unpublished_at: string }>;
export type RevisionDeleted = Message<'RevisionDeleted', RevisionRef & { readonly snapshot: RevisionSnapshot }>;
/** A draft revision's payload replaced (PUT of a revision, docs/decisions/0114). */
export type RevisionUpdated = Message<
  'RevisionUpdated',
  RevisionRef & {
    readonly data: Record<string, unknown>;
    readonly size: number;
    readonly schema_version: string | null;
    readonly is_valid: boolean | null;
    readonly updated_at: string;
  }
>;

/** The revision is to be published at `publish_at` by the scheduler (docs/decisions/0357); a later one for the same revision replaces it. */
export type RevisionScheduled = Message<'RevisionScheduled', RevisionRef & { readonly publish_at: string }>;
/** The schedule of the revision is gone: cancelled by a writer (`reason` null), or by the scheduler when the publish was refused. */
export type RevisionScheduleCancelled = Message<'RevisionScheduleCancelled', RevisionRef & { readonly reason: string | null }>;

/** Metadata only: the payload changes through revisions. */
export type ResourceUpdated = Message<'ResourceUpdated', { readonly env: string; readonly folder: string; readonly key: string; readonly name: string | null }>;
/** The resource and every revision it still had (`revisions`) are gone. */
export type ResourceDeleted = Message<
  'ResourceDeleted',
  {
    readonly env: string;
    readonly folder: string;
    readonly key: string;
    readonly external_id: string | null;
    readonly revisions: readonly string[];
    readonly snapshot: ResourceSnapshot;
  }
>;

export type ResourceEvent =
  | ResourceCreated
  | RevisionCreated
  | ResourceUpdated
  | RevisionPublished
  | RevisionUnpublished
  | RevisionDeleted
  | RevisionUpdated
  | RevisionScheduled
  | RevisionScheduleCancelled
  | ResourceDeleted;

export const MAX_PAYLOAD_BYTES = 1024 * 1024;
