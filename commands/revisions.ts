import { DomainError, notFound } from '../domain/errors.js';
import type { RevisionCreated, RevisionUpdated } from '../domain/resource/events.js';
import { resource } from '../domain/resource/decider.js';
import type { CommandBus } from './command-bus.js';
import { payloadSize, validation } from './content-check.js';
import type { CommandContext } from './context.js';
import type { DataValidator } from './data-validator.js';
import { newKey } from './keys.js';
import { collectionOf, type Collection } from './resources.js';
import { streams } from './streams.js';

/** `auto_remove_revisions` of the collection: how many revisions each resource keeps (null: all). */
export const revisionsToKeep = (node: Collection): number | null => node.auto_remove_revisions;

/** The payload of a revision of an existing resource, from the resource stream (404 when either is missing). */
async function payloadOf(bus: CommandBus, folder: string, key: string, revision: string): Promise<Record<string, unknown>> {
  const { state } = await bus.load(resource, streams.resource(key));
  if (state.status !== 'active' || state.folder !== folder) throw notFound('resource_not_found', 'Resource');
  if (!state.live.some((r) => r.key === revision)) throw notFound('revision_not_found', 'Revision');
  // The newest payload: the revision's creation, or the last update of its draft.
  const written = (await bus.readStream(streams.resource(key)))
    .filter((e) => (e.type === 'RevisionCreated' || e.type === 'RevisionUpdated') && (e.data as RevisionCreated['data']).key === revision)
    .pop();
  if (!written) throw notFound('revision_not_found', 'Revision');
  return (written.data as RevisionCreated['data'] | RevisionUpdated['data']).data;
}

/** A draft revision with the given data. */
export async function createRevision(
  bus: CommandBus,
  validator: DataValidator,
  ctx: CommandContext,
  folder: string,
  key: string,
  input: { data: Record<string, unknown>; validate_data: boolean; publish?: boolean },
) {
  const node = await collectionOf(bus, ctx.env, folder);
  const revision = newKey();
  const handled = await bus.handle(resource, streams.resource(key), {
    type: 'CreateRevision',
    data: {
      env: ctx.env,
      folder,
      resource: key,
      revision,
      data: input.data,
      size: payloadSize(input.data),
      validation: await validation(bus, validator, folder, input.data, input.validate_data || input.publish === true),
      validate_data: input.validate_data,
      created_at: ctx.now,
      keep: revisionsToKeep(node),
      ...(input.publish === true ? { publish: true } : {}),
    },
  }, ctx.metadata);
  return { ...handled, revision };
}

/** Publishes a revision whose data follows the current schema; the previous current one becomes unpublished. */
export async function publishRevision(bus: CommandBus, validator: DataValidator, ctx: CommandContext, folder: string, key: string, revision: string) {
  await collectionOf(bus, ctx.env, folder);
  const data = await payloadOf(bus, folder, key, revision);
  return bus.handle(resource, streams.resource(key), {
    type: 'PublishRevision',
    data: { env: ctx.env, folder, resource: key, revision, published_at: ctx.now, data, validation: await validation(bus, validator, folder, data, true) },
  }, ctx.metadata);
}

/** The errors of a revision's data against the collection's current published schema (nothing is written). */
export async function validateRevision(bus: CommandBus, validator: DataValidator, env: string, folder: string, key: string, revision: string) {
  await collectionOf(bus, env, folder);
  const data = await payloadOf(bus, folder, key, revision);
  const checked = await validation(bus, validator, folder, data, true);
  if (checked.schema_version === null) throw new DomainError('validation_error', 'The collection has no published schema version.', { data: ['no published schema'] });
  const localizable = checked.localizable.map((path) => ({ path, message: 'a localizable field takes an object keyed by locale code' }));
  return { schema_version: checked.schema_version, errors: [...localizable, ...(checked.errors ?? [])] };
}

export async function deleteRevision(bus: CommandBus, ctx: CommandContext, folder: string, key: string, revision: string) {
  await collectionOf(bus, ctx.env, folder);
  return bus.handle(resource, streams.resource(key), { type: 'DeleteRevision', data: { env: ctx.env, folder, resource: key, revision } }, ctx.metadata);
}

/** Replaces the data of a draft revision (PUT of a revision). */
export async function updateRevision(
  bus: CommandBus,
  validator: DataValidator,
  ctx: CommandContext,
  folder: string,
  key: string,
  revision: string,
  input: { data: Record<string, unknown>; validate_data: boolean },
) {
  await collectionOf(bus, ctx.env, folder);
  return bus.handle(resource, streams.resource(key), {
    type: 'UpdateRevision',
    data: {
      env: ctx.env,
      folder,
      resource: key,
      revision,
      data: input.data,
      size: payloadSize(input.data),
      validation: await validation(bus, validator, folder, input.data, input.validate_data),
      validate_data: input.validate_data,
      updated_at: ctx.now,
    },
  }, ctx.metadata);
}

/** Scheduled publishing (docs/decisions/0357): the revision is published by the scheduler at `publishAt`. */
export async function scheduleRevision(bus: CommandBus, validator: DataValidator, ctx: CommandContext, folder: string, key: string, revision: string, publishAt: string) {
  await collectionOf(bus, ctx.env, folder);
  const data = await payloadOf(bus, folder, key, revision);
  return bus.handle(resource, streams.resource(key), {
    type: 'SchedulePublish',
    data: { env: ctx.env, folder, resource: key, revision, publish_at: publishAt, now: ctx.now, validation: await validation(bus, validator, folder, data, true) },
  }, ctx.metadata);
}

export async function cancelSchedule(bus: CommandBus, ctx: CommandContext, folder: string, key: string, revision: string) {
  await collectionOf(bus, ctx.env, folder);
  return bus.handle(resource, streams.resource(key), { type: 'CancelSchedule', data: { env: ctx.env, folder, resource: key, revision } }, ctx.metadata);
}

/** Who publishes a schedule when it is due (the audit entry's actor). */
export const SCHEDULER_ACTOR = { key: 'scheduler', name: 'scheduler' } as const;

/**
 * The scheduler's publish of a due schedule: the same publish as a writer's, decided on the
 * resource stream, which refuses a second fire of the same schedule (it is no longer there).
 */
export async function publishScheduled(bus: CommandBus, validator: DataValidator, schedule: { env: string; folder: string; resource: string; revision: string; publish_at: string }, now: string) {
  const { env, folder, resource: key, revision, publish_at } = schedule;
  const data = await payloadOf(bus, folder, key, revision);
  const metadata = { actor_type: 'system', actor: SCHEDULER_ACTOR, ip_address: null, referer: null, timestamp: now } as const;
  return bus.handle(resource, streams.resource(key), {
    type: 'PublishScheduled',
    data: { env, folder, resource: key, revision, publish_at, published_at: now, data, validation: await validation(bus, validator, folder, data, true) },
  }, metadata);
}
