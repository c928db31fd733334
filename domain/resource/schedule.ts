import { DomainError, notFound } from '../errors.js';
import type { CancelSchedule, PublishScheduled, SchedulePublish } from './commands.js';
import { refuseInvalid, refuseWithoutSchema } from './content.js';
import type { ResourceEvent } from './events.js';
import { publishEvents } from './revision-events.js';
import { active, revisionOf } from './revisions.js';

/**
 * Scheduled publishing (docs/decisions/0357): a schedule is an event on the resource stream, and
 * the scheduler fires it through `PublishScheduled`, decided on the stream like any publish. Two
 * fires of one schedule cannot both publish: the second is decided on the state after the first,
 * where the revision is no longer scheduled, or its append is refused by the stream's revision.
 */

/** A publish at a future time; the data must pass as an immediate publish's would. A past time is refused (0357). */
export function schedulePublish({ data }: SchedulePublish, state: Parameters<typeof active>[0]): ResourceEvent[] {
  const resource = active(state, data.folder);
  revisionOf(resource, data.revision);
  if (!(Date.parse(data.publish_at) > Date.parse(data.now))) {
    throw new DomainError('validation_error', 'publish_at must be in the future.', { publish_at: ['must be in the future'] });
  }
  if (resource.current === data.revision) {
    throw new DomainError('validation_error', 'The revision is already published.', { revision: ['is the current revision'] });
  }
  refuseWithoutSchema(data.validation, 'validation_error');
  refuseInvalid(data.validation, 'validation_error');
  const ref = { env: resource.env, folder: resource.folder, resource: resource.key, key: data.revision };
  return [{ type: 'RevisionScheduled', data: { ...ref, publish_at: data.publish_at } }];
}

export function cancelSchedule({ data }: CancelSchedule, state: Parameters<typeof active>[0]): ResourceEvent[] {
  const resource = active(state, data.folder);
  const revision = revisionOf(resource, data.revision);
  if (revision.publish_at === undefined) throw notFound('schedule_not_found', 'Schedule');
  return [{ type: 'RevisionScheduleCancelled', data: { env: resource.env, folder: resource.folder, resource: resource.key, key: revision.key, reason: null } }];
}

/**
 * The scheduler's publish. Nothing when the schedule is no longer there as it was (fired,
 * cancelled, moved, the resource or revision gone); a cancellation with the reason when the
 * publish would be refused now (the schema changed since), so a due schedule never blocks the scheduler.
 */
export function publishScheduled({ data }: PublishScheduled, state: Parameters<typeof active>[0]): ResourceEvent[] {
  if (state.status !== 'active' || state.folder !== data.folder) return [];
  const revision = state.live.find((r) => r.key === data.revision);
  if (!revision || revision.publish_at !== data.publish_at) return [];
  const ref = { env: state.env, folder: state.folder, resource: state.key, key: revision.key };
  try {
    refuseWithoutSchema(data.validation, 'validation_error');
    refuseInvalid(data.validation, 'validation_error');
  } catch (error) {
    return [{ type: 'RevisionScheduleCancelled', data: { ...ref, reason: error instanceof DomainError ? error.message : 'refused' } }];
  }
  if (state.current === revision.key) return [{ type: 'RevisionScheduleCancelled', data: { ...ref, reason: 'The revision is already published.' } }];
  return publishEvents(state, revision.key, data.data, data.published_at);
}
