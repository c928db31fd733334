import { isValid } from './content.js';
import type { NewPayload } from './commands.js';
import type { ResourceEvent, RevisionCreated, RevisionDeleted, RevisionPublished, RevisionUnpublished } from './events.js';
import { evolve, type ActiveResource, type ResourceState, type RevisionSummary } from './state.js';

/** The next revision of a resource, as a draft or published at once. */
export function revisionCreated(
  resource: { readonly env: string; readonly folder: string; readonly key: string },
  number: number,
  payload: NewPayload,
  published: boolean,
  at: string,
): RevisionCreated {
  return {
    type: 'RevisionCreated',
    data: {
      env: resource.env,
      folder: resource.folder,
      resource: resource.key,
      key: payload.revision,
      number,
      data: payload.data,
      size: payload.size,
      schema_version: payload.validation.schema_version,
      status: published ? 'published' : 'draft',
      is_valid: isValid(payload.validation),
      created_at: at,
      published_at: published ? at : null,
    },
  };
}

/** Publishing `key`: the current revision (if another) becomes unpublished first. */
export function publishEvents(state: ActiveResource, key: string, data: Record<string, unknown>, at: string): (RevisionUnpublished | RevisionPublished)[] {
  const ref = { env: state.env, folder: state.folder, resource: state.key };
  const events: (RevisionUnpublished | RevisionPublished)[] = [];
  if (state.current !== null && state.current !== key) events.push({ type: 'RevisionUnpublished', data: { ...ref, key: state.current, unpublished_at: at } });
  events.push({ type: 'RevisionPublished', data: { ...ref, key, published_at: at, data } });
  return events;
}

export function revisionDeleted(state: ActiveResource, revision: RevisionSummary): RevisionDeleted {
  const { number, size, status, is_valid, schema_version } = revision;
  return {
    type: 'RevisionDeleted',
    data: { env: state.env, folder: state.folder, resource: state.key, key: revision.key, snapshot: { number, size, status, is_valid, version_key: schema_version } },
  };
}

/**
 * `auto_remove_revisions`: after `events`, the oldest revisions beyond `keep` are deleted,
 * never the current one.
 */
export function withTrim(state: ResourceState, events: readonly ResourceEvent[], keep: number | null): ResourceEvent[] {
  const next = events.reduce(evolve, state);
  if (keep === null || next.status !== 'active' || next.live.length <= keep) return [...events];
  const removable = next.live.filter((r) => r.key !== next.current);
  const excess = next.live.length - keep;
  return [...events, ...removable.slice(0, excess).map((r) => revisionDeleted(next, r))];
}
