import { DomainError } from '../domain/errors.js';
import { externalId } from '../domain/external-id/decider.js';
import { resource, type UpsertResource } from '../domain/resource/decider.js';
import type { CommandBus } from './command-bus.js';
import { payloadSize, validation } from './content-check.js';
import type { CommandContext } from './context.js';
import type { DataValidator } from './data-validator.js';
import { newKey, newOrderedKey } from './keys.js';
import { claimExternalId, collectionOf, ownerCheck, refuseOrphan } from './resources.js';
import { releaseUnlessCreated, reserveSlot, type ResourceQuota } from './resource-quota.js';
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

/** Rounds of "find the owner of the external_id, write to it": a lost claim or a concurrent delete starts a new round. */
const ROUNDS = 3;

/** The resource that owns the external_id, or null when it is free (never claimed, or its resource was deleted). */
async function ownerOf(bus: CommandBus, folder: string, value: string): Promise<string | null> {
  const { state } = await bus.load(externalId, streams.externalId(folder, value));
  if (state.owner === null) return null;
  const { state: owner } = await bus.load(resource, streams.resource(state.owner));
  return owner.status === 'deleted' ? null : state.owner;
}

const retryable = (error: unknown): boolean =>
  error instanceof DomainError && (error.code === 'external_id_conflict' || error.code === 'resource_not_found');

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
  for (let round = 0; round < ROUNDS; round++) {
    let key = await ownerOf(bus, folder, external_id);
    const fresh = key === null;
    if (key === null) {
      key = newOrderedKey();
      // Refuse invalid input before anything is claimed; a create counts against RESOURCE_LIMIT (403 on an upsert).
      resource.decide(command(key), resource.initialState());
      try {
        await reserveSlot(bus, quota, ctx, folder, key, 403);
      } catch (error) {
        // A concurrent upsert of the same value may hold the last slot: its resource takes this write as a revision.
        if (round + 1 < ROUNDS && (await ownerOf(bus, folder, external_id)) !== null) continue;
        throw error;
      }
    }
    try {
      if (fresh) await claimExternalId(bus, ctx, folder, external_id, key);
      const handled = await bus.handle(resource, streams.resource(key), command(key), ctx.metadata);
      const created = handled.events.some((e) => e.type === 'ResourceCreated');
      if (created) await refuseOrphan(bus, ctx, folder, key, resource_owner, quota);
      return { ...handled, key, created, revision: payload.revision };
    } catch (error) {
      if (fresh) await releaseUnlessCreated(bus, quota, ctx, folder, key);
      if (!retryable(error) || round + 1 >= ROUNDS) throw error;
    }
  }
  throw new DomainError('revision_number_conflict', 'Another write changed the same entity; retry the same write.');
}
