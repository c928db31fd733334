import type { StoredEvent } from '../../commands/ports.js';
import type { ResourceEvent } from '../../domain/resource/events.js';
import { evolve, type ActiveResource, type ResourceState } from '../../domain/resource/state.js';

/** A resource folded from its events, with the payloads its revisions carried. */
export type ResourceHistory = {
  readonly state: ResourceState;
  /** Revision key → its payload as last stored (created, then as published). */
  readonly payloads: ReadonlyMap<string, Record<string, unknown>>;
};

const asResourceEvent = (stored: StoredEvent): ResourceEvent => ({ type: stored.type, data: stored.data }) as ResourceEvent;

/** Folds one resource stream's events with the domain's `evolve` (time travel, docs/decisions/0072). */
export function foldResource(events: readonly StoredEvent[]): ResourceHistory {
  let state: ResourceState = { status: 'none' };
  const payloads = new Map<string, Record<string, unknown>>();
  for (const stored of events) {
    const event = asResourceEvent(stored);
    state = evolve(state, event);
    if (event.type === 'RevisionCreated' || event.type === 'RevisionPublished') payloads.set(event.data.key, event.data.data);
    if (event.type === 'RevisionDeleted') payloads.delete(event.data.key);
  }
  return { state, payloads };
}

/** A resource that existed at the point asked about. */
export type ActiveHistory = ResourceHistory & { readonly state: ActiveResource };

export const isActive = (history: ResourceHistory): history is ActiveHistory => history.state.status === 'active';

/** The management read-model document the resource had then (shaped by read-api/views.ts like a live one). */
export function resourceDocOf(state: ActiveResource) {
  return {
    _id: state.key,
    env: state.env,
    key: state.key,
    name: state.name,
    folder: state.folder,
    content_type: 'document',
    external_id: state.external_id,
    created_at: state.created_at,
    resource_owner: state.resource_owner,
    current_revision: state.current,
    vectors_size: 0,
  };
}

/** Resource events only: the streams `resource-{key}`. */
export const RESOURCE_STREAM_PREFIX = 'resource-';
