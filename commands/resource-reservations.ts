import { DomainError } from '../domain/errors.js';
import { externalId, type ClaimExternalId, type ExternalIdState } from '../domain/external-id/decider.js';
import { resource, type CreateResource, type ResourceState, type UpsertResource } from '../domain/resource/decider.js';
import type { ResourceEvent } from '../domain/resource/events.js';
import { resourceQuota, type ReserveResourceSlot } from '../domain/resource-quota/decider.js';
import type { CommandBus, Handled } from './command-bus.js';
import type { CommandContext } from './context.js';
import { releaseSlot, type ResourceQuota } from './resource-quota.js';
import { streams } from './streams.js';

/** The command that creates a resource: a POST create, or an upsert of an external_id no resource holds. */
export type NewResourceCommand = CreateResource | UpsertResource;

export type Created = Handled<ResourceState, ResourceEvent>;

/** The steps after the write guards admitted the create (step 2). */
const ADMITTED = { admitted: true } as const;

/**
 * A new resource with what it reserves on other streams, one step after another
 * (docs/decisions/0375). Every refusal answers at once and leaves nothing claimed:
 *
 * 1. refuse the command as the resource's decision will (invalid input; a parent that is
 *    required, not allowed or missing: 422);
 * 2. ask the write guards (environment protection 403, billing 402) once, for the whole
 *    create: the steps below are its later steps, never refused halfway (docs/decisions/0152);
 * 3. under RESOURCE_LIMIT, refuse an external_id already taken (409) before a slot is claimed;
 * 4. reserve a slot under RESOURCE_LIMIT (plan_limit_exceeded with `overLimit`: the
 *    specification's 422 on a create, 403 on an upsert);
 * 5. claim the external_id (409 when another create claimed it since);
 * 6. append the resource (its key was just drawn: nothing to read first, docs/decisions/0296);
 * 7. refuse an orphan: a child whose parent was deleted since the owner check is deleted again
 *    (422 resource_owner_not_found);
 * 8. on any failure after the slot was reserved, release it unless the resource came to exist.
 */
export async function createWithReservations(
  bus: CommandBus,
  ctx: CommandContext,
  quota: ResourceQuota,
  command: NewResourceCommand,
  overLimit: 422 | 403,
): Promise<Created> {
  const { folder, key, external_id } = command.data;
  resource.decide(command, resource.initialState());
  await bus.admit(streams.resource(key), command, ctx.metadata);
  if (quota !== null && external_id !== null) await refuseTakenExternalId(bus, ctx, folder, external_id, key);
  if (quota !== null) await reserveSlot(bus, quota, ctx, folder, key, overLimit);
  try {
    if (external_id !== null) await claimExternalId(bus, ctx, folder, external_id, key);
    const created = await bus.handleNew(resource, streams.resource(key), command, ctx.metadata, ADMITTED);
    await refuseOrphan(bus, ctx, quota, command, created);
    return created;
  } catch (error) {
    await releaseUnlessCreated(bus, quota, ctx, folder, key);
    throw error;
  }
}

/** The claim of an external_id for a resource key, as its reservation stream stands. */
async function claimCommand(bus: CommandBus, ctx: CommandContext, folder: string, value: string, owner: string, state: ExternalIdState): Promise<ClaimExternalId> {
  const status = state.owner === null ? 'none' : (await bus.load(resource, streams.resource(state.owner))).state.status;
  return {
    type: 'ClaimExternalId',
    data: { env: ctx.env, folder, external_id: value, resource: owner, claimed_at: ctx.now, now: ctx.now, ownerExists: status !== 'none', ownerDeleted: status === 'deleted' },
  };
}

/** Step 3: refuses (409) an external_id already taken, writing nothing; the claim decides again when it is appended. */
async function refuseTakenExternalId(bus: CommandBus, ctx: CommandContext, folder: string, value: string, owner: string): Promise<void> {
  const { state } = await bus.load(externalId, streams.externalId(folder, value));
  externalId.decide(await claimCommand(bus, ctx, folder, value, owner, state), state);
}

/** Step 4: reserves the slot of the new key; refused with plan_limit_exceeded at the limit, with `status` for the HTTP answer. */
async function reserveSlot(bus: CommandBus, quota: NonNullable<ResourceQuota>, ctx: CommandContext, folder: string, key: string, status: number): Promise<void> {
  try {
    await bus.handle(resourceQuota, streams.resourceQuota(ctx.env), async (state): Promise<ReserveResourceSlot> => ({
      type: 'ReserveResourceSlot',
      data: { env: ctx.env, folder, key, limit: quota.limit, existing: state.seeded ? [] : await quota.existing(ctx.env) },
    }), ctx.metadata, ADMITTED);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'plan_limit_exceeded') throw new DomainError(error.code, error.message, error.detail, status);
    throw error;
  }
}

/** Step 5: claims an external_id for a resource key through its reservation stream (409 when taken). */
async function claimExternalId(bus: CommandBus, ctx: CommandContext, folder: string, value: string, owner: string): Promise<void> {
  await bus.handle(externalId, streams.externalId(folder, value), (state) => claimCommand(bus, ctx, folder, value, owner, state), ctx.metadata, ADMITTED);
}

/**
 * Step 7, also after an upsert that created the resource of a key another upsert claimed: a
 * child appended after its parent was deleted (the parent's delete and the child's create
 * raced) is deleted again at once, its slot released, and the write answers resource_owner_not_found.
 */
export async function refuseOrphan(bus: CommandBus, ctx: CommandContext, quota: ResourceQuota, command: NewResourceCommand, written: Created): Promise<void> {
  const { env, folder, key, resource_owner: owner } = command.data;
  if (owner === null || !written.events.some((e) => e.type === 'ResourceCreated')) return;
  const { state: parent } = await bus.load(resource, streams.resource(owner));
  if (parent.status !== 'deleted') return;
  await bus.handle(resource, streams.resource(key), { type: 'DeleteResource', data: { env, folder, key } }, ctx.metadata, ADMITTED);
  await releaseSlot(bus, quota, ctx, folder, key);
  throw new DomainError('resource_owner_not_found', 'The parent resource was deleted.');
}

/** Step 8: frees the reserved slot unless the resource came to exist after all. */
async function releaseUnlessCreated(bus: CommandBus, quota: ResourceQuota, ctx: CommandContext, folder: string, key: string): Promise<void> {
  if (quota === null) return;
  const { state } = await bus.load(resource, streams.resource(key));
  if (state.status !== 'active') await releaseSlot(bus, quota, ctx, folder, key);
}
