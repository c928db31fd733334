import type { Message } from '../decider.js';
import type { Validation } from './content.js';
import type { ResourceFields } from './events.js';

/** What the handler found about the parent a strict-reference collection requires. */
export type OwnerCheck = {
  /** The collection is strict-reference: `resource_owner` is required. */
  readonly required: boolean;
  /** The named owner is a resource of the parent collection. */
  readonly found: boolean;
};

/** A new payload: the revision key, the data, its size and how it fared against the schema. */
export type NewPayload = {
  readonly revision: string;
  readonly data: Record<string, unknown>;
  readonly size: number;
  readonly validation: Validation;
  readonly validate_data: boolean;
};

/** `auto_remove_revisions` of the collection: keep the newest N revisions (null: keep all). */
type Keep = { readonly keep: number | null };

export type CreateResource = Message<'CreateResource', ResourceFields & NewPayload & { readonly owner: OwnerCheck; readonly mode: 'instant' | 'draft' }>;

/**
 * PUT with `external_id`: creates the resource (key chosen by the handler) or adds a
 * revision to it. `name` undefined: not sent. `if_match`: the revision expected current.
 */
export type UpsertResource = Message<
  'UpsertResource',
  Omit<ResourceFields, 'name'> &
    NewPayload &
    Keep & {
      readonly name?: string | null;
      readonly owner: OwnerCheck;
      readonly mode: 'instant' | 'draft';
      readonly if_match: string | null;
      /** With mode=draft: the new revision is also scheduled for publishing then (docs/decisions/0357). */
      readonly publish_at?: string;
    }
>;

/** `name` left out (undefined) keeps the name: nothing changes. */
export type UpdateMetadata = Message<'UpdateMetadata', { readonly env: string; readonly folder: string; readonly key: string; readonly name?: string | null }>;

type OfResource = { readonly env: string; readonly folder: string; readonly resource: string };

/**
 * A draft revision through the revisions endpoint; with `publish` (a delivery update) the
 * revision is published in the same decision, so that no refusal can come between the two.
 */
export type CreateRevision = Message<'CreateRevision', OfResource & NewPayload & Keep & { readonly created_at: string; readonly publish?: boolean }>;
/** `data` is the revision's payload, `validation` its check against the current schema (both looked up by the handler). */
export type PublishRevision = Message<
  'PublishRevision',
  OfResource & { readonly revision: string; readonly published_at: string; readonly data: Record<string, unknown>; readonly validation: Validation }
>;
export type DeleteRevision = Message<'DeleteRevision', OfResource & { readonly revision: string }>;
/** Replaces the payload of a draft revision (`revision` in NewPayload is the existing key). */
export type UpdateRevision = Message<'UpdateRevision', OfResource & NewPayload & { readonly updated_at: string }>;
/** Publish at `publish_at` (after `now`); the data is checked now as a publish would, and again when it fires. */
export type SchedulePublish = Message<
  'SchedulePublish',
  OfResource & { readonly revision: string; readonly publish_at: string; readonly now: string; readonly validation: Validation }
>;
export type CancelSchedule = Message<'CancelSchedule', OfResource & { readonly revision: string }>;
/** The scheduler's publish of a schedule due: does nothing unless the revision is still scheduled for `publish_at`. */
export type PublishScheduled = Message<
  'PublishScheduled',
  OfResource & { readonly revision: string; readonly publish_at: string; readonly published_at: string; readonly data: Record<string, unknown>; readonly validation: Validation }
>;
export type DeleteResource = Message<'DeleteResource', { readonly env: string; readonly folder: string; readonly key: string }>;

export type ResourceCommand =
  | CreateResource
  | UpsertResource
  | UpdateMetadata
  | CreateRevision
  | PublishRevision
  | DeleteRevision
  | UpdateRevision
  | SchedulePublish
  | CancelSchedule
  | PublishScheduled
  | DeleteResource;
