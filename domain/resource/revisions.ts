import { DomainError, notFound } from '../errors.js';
import { isValid, refuseInvalid, refuseOversize, refuseWithoutSchema } from './content.js';
import type { CreateRevision, DeleteRevision, PublishRevision, UpdateRevision } from './commands.js';
import type { ResourceEvent } from './events.js';
import { publishEvents, revisionCreated, revisionDeleted, withTrim } from './revision-events.js';
import type { ActiveResource, ResourceState, RevisionSummary } from './state.js';

export function active(state: ResourceState, folder: string): ActiveResource {
  if (state.status !== 'active' || state.folder !== folder) throw notFound('resource_not_found', 'Resource');
  return state;
}

export function revisionOf(state: ActiveResource, key: string): RevisionSummary {
  const found = state.live.find((r) => r.key === key);
  if (!found) throw notFound('revision_not_found', 'Revision');
  return found;
}

/** A draft revision; its data is validated unless `validate_data` is false. With `publish`, it is published at once (validated against a published schema). */
export function createRevision({ data }: CreateRevision, state: ResourceState): ResourceEvent[] {
  const resource = active(state, data.folder);
  refuseOversize(data.size);
  if (data.publish === true) refuseWithoutSchema(data.validation, 'validation_error');
  if (data.validate_data || data.publish === true) refuseInvalid(data.validation, 'validation_error');
  const created = revisionCreated(resource, resource.revisions + 1, data, false, data.created_at);
  const published = data.publish === true ? publishEvents(resource, data.revision, data.data, data.created_at) : [];
  return withTrim(state, [created, ...published], data.keep);
}

/** Publishes a revision after checking its data against the current schema; publishing the current one changes nothing. */
export function publishRevision({ data }: PublishRevision, state: ResourceState): ResourceEvent[] {
  const resource = active(state, data.folder);
  revisionOf(resource, data.revision);
  if (resource.current === data.revision) return [];
  refuseWithoutSchema(data.validation, 'validation_error');
  refuseInvalid(data.validation, 'validation_error');
  return publishEvents(resource, data.revision, data.data, data.published_at);
}

/** Deletes a revision other than the current one. */
export function deleteRevision({ data }: DeleteRevision, state: ResourceState): ResourceEvent[] {
  const resource = active(state, data.folder);
  const revision = revisionOf(resource, data.revision);
  if (resource.current === revision.key) {
    throw new DomainError('validation_error', 'The current revision cannot be deleted; publish another one first.', { revision: ['is the current revision'] });
  }
  return [revisionDeleted(resource, revision)];
}

/** Replaces the payload of a draft revision; a published or unpublished revision is a fixed record. */
export function updateRevision({ data }: UpdateRevision, state: ResourceState): ResourceEvent[] {
  const resource = active(state, data.folder);
  const revision = revisionOf(resource, data.revision);
  if (revision.status !== 'draft') {
    throw new DomainError('validation_error', 'Only a draft revision can be changed; create a new revision instead.', { revision: [`is ${revision.status}`] });
  }
  refuseOversize(data.size);
  if (data.validate_data) refuseInvalid(data.validation, 'validation_error');
  const ref = { env: resource.env, folder: resource.folder, resource: resource.key, key: revision.key };
  return [
    {
      type: 'RevisionUpdated',
      data: { ...ref, data: data.data, size: data.size, schema_version: data.validation.schema_version, is_valid: isValid(data.validation), updated_at: data.updated_at },
    },
  ];
}
