import { DomainError, notFound } from '../errors.js';
import { refuseMode, refuseOversize } from './content.js';
import type { UpsertResource } from './commands.js';
import { create } from './create.js';
import type { ResourceEvent } from './events.js';
import { publishEvents, revisionCreated, withTrim } from './revision-events.js';
import { schedulePublish } from './schedule.js';
import { evolve, type ResourceState } from './state.js';

const preconditionFailed = (current: string | null): DomainError =>
  new DomainError('revision_precondition_failed', 'The If-Match revision is no longer current.', { current_revision: current });

/**
 * Creates the resource when its stream is new, else adds revision N+1: published (the
 * previous one unpublished) with mode=instant, a draft with mode=draft. `name` changes only
 * if sent; `resource_owner` and `external_id` never change. `If-Match` is checked against
 * the state decided on, so a retry after a conflict sees a newer revision and answers 412.
 */
export function upsert(command: UpsertResource, state: ResourceState): ResourceEvent[] {
  const { publish_at, ...rest } = command.data;
  const events = upsertEvents({ ...command, data: rest }, state);
  if (publish_at === undefined) return events;
  // `publish_at` with mode=draft: the new revision scheduled in the same append (docs/decisions/0357).
  if (rest.mode !== 'draft') throw new DomainError('validation_error', 'publish_at requires mode=draft.', { publish_at: ['requires mode=draft'] });
  const next = events.reduce(evolve, state);
  return [...events, ...schedulePublish({ type: 'SchedulePublish', data: { env: rest.env, folder: rest.folder, resource: rest.key, revision: rest.revision, publish_at, now: rest.created_at, validation: rest.validation } }, next)];
}

function upsertEvents(command: UpsertResource, state: ResourceState): ResourceEvent[] {
  const { if_match, keep, name, owner, mode, revision, data, size, validation, validate_data, ...fields } = command.data;
  if (state.status === 'none') {
    if (if_match !== null) throw preconditionFailed(null);
    return create(
      { type: 'CreateResource', data: { ...fields, name: name ?? null, owner, mode, revision, data, size, validation, validate_data } },
      state,
      'data_validation_error',
    );
  }
  if (state.status !== 'active' || state.folder !== fields.folder) throw notFound('resource_not_found', 'Resource');
  refuseOversize(size);
  refuseMode(mode, validate_data, validation, 'data_validation_error');
  if (if_match !== null && if_match !== state.current) throw preconditionFailed(state.current);
  const at = fields.created_at;
  const events: ResourceEvent[] = [revisionCreated(state, state.revisions + 1, { revision, data, size, validation, validate_data }, false, at)];
  if (mode === 'instant') events.push(...publishEvents(state, revision, data, at));
  if (name !== undefined && name !== state.name) events.push({ type: 'ResourceUpdated', data: { env: state.env, folder: state.folder, key: state.key, name } });
  return withTrim(state, events, keep);
}
