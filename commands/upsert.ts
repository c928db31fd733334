import { DomainError } from '../domain/errors.js';
import { externalId } from '../domain/external-id/decider.js';
import { resource, type UpsertResource } from '../domain/resource/decider.js';
import type { CommandBus } from './command-bus.js';
import { payloadSize, validation } from './content-check.js';
import type { CommandContext } from './context.js';
import type { DataValidator } from './data-validator.js';
import { newKey, newOrderedKey } from './keys.js';
import type { ResourceQuota } from './resource-quota.js';
import { createWithReservations, refuseOrphan } from './resource-reservations.js';
import { collectionOf, ownerCheck } from './resources.js';
import { retrying, type RetryPolicy } from './retry.js';
import { revisionsToKeep } from './revisions.js';
import { streams } from './streams.js';

export type UpsertInput = {
  readonly folder: string;
  readonly external_id: string;
  /** undefined: not sent, the name is kept. */
  readonly name?: string | null;
  readonly resource_owner: string | null;
  readonly mode: 'instant' | 'draft';
  readonly validate_data: boolean;
  readonly data: Record<string, unknown>;
  readonly if_match: string | null;
  readonly publish_at?: string;
};

/** The resource that owns the external_id, or null when it is free (never claimed, or its resource was deleted). */
async function ownerOf(bus: CommandBus, folder: string, value: string): Promise<string | null> {
  const { state } = await bus.load(externalId, streams.externalId(folder, value));
  if (state.owner === null) return null;
  const { state: owner } = await bus.load(resource, streams.resource(state.owner));
  return owner.status === 'deleted' ? null : state.owner;
}

/**
 * A new round of "find the owner of the external_id, write to it", three rounds at most: after a
 * claim lost to a concurrent upsert of the same value, a concurrent delete, or the last slot
 * taken by a concurrent upsert whose resource now holds the value (it takes this write as a revision).
 */
const newRound = (bus: CommandBus, folder: string, value: string): RetryPolicy => ({
  retries: 2,
  on: async (error) =>
    error instanceof DomainError &&
    (error.code === 'external_id_conflict' || error.code === 'resource_not_found' || (error.code === 'plan_limit_exceeded' && (await ownerOf(bus, folder, value)) !== null)),
});

/**
 * PUT with `external_id`. The resource claimed for the value gets the write; a free value
 * is claimed for a new key first. Concurrent upserts of a new value all write to the one
 * claimed key: the first append creates the resource, the others become its revisions.
 */
export async function upsertResource(bus: CommandBus, validator: DataValidator, ctx: CommandContext, input: UpsertInput, quota: ResourceQuota = null) {
  const node = await collectionOf(bus, ctx.env, input.folder);
  const { folder, external_id, name, resource_owner, mode, validate_data, data, if_match, publish_at } = input;
  const payload = {
    revision: newKey(),
    data,
    size: payloadSize(data),
    // A scheduled revision is checked now as its publish will be.
    validation: await validation(bus, validator, folder, data, validate_data || publish_at !== undefined),
    validate_data,
  };
  const owner = await ownerCheck(bus, node, resource_owner);
  const keep = revisionsToKeep(node);
  const command = (key: string): UpsertResource => ({
    type: 'UpsertResource',
    data: { env: ctx.env, folder, key, external_id, resource_owner, created_at: ctx.now, name, owner, mode, ...payload, if_match, keep, ...(publish_at === undefined ? {} : { publish_at }) },
  });
  return retrying(newRound(bus, folder, external_id), async () => {
    const holder = await ownerOf(bus, folder, external_id);
    // A free value: a new key, created under its reservations (RESOURCE_LIMIT refuses an upsert with 403).
    const key = holder ?? newOrderedKey();
    const written = holder === null
      ? await createWithReservations(bus, ctx, quota, command(key), 403)
      : await bus.handle(resource, streams.resource(key), command(key), ctx.metadata);
    // The first write to a key another upsert claimed (and has not written yet) creates its resource.
    if (holder !== null) await refuseOrphan(bus, ctx, quota, command(key), written);
    return { ...written, key, created: written.events.some((e) => e.type === 'ResourceCreated'), revision: payload.revision };
  });
}
