import type { Decider, Message } from '../decider.js';
import { DomainError } from '../errors.js';
import { has } from '../records.js';

/**
 * The resource count of one environment under an operator-set limit (RESOURCE_LIMIT,
 * docs/decisions/0031): one slot per resource key, reserved before the resource is
 * created and released when it is deleted. The first reservation seeds the slots of the
 * resources that existed before counting began.
 */

type Slot = { readonly env: string; readonly folder: string; readonly key: string };

export type ResourceSlotsSeeded = Message<'ResourceSlotsSeeded', { readonly env: string; readonly slots: readonly Omit<Slot, 'env'>[] }>;
export type ResourceSlotReserved = Message<'ResourceSlotReserved', Slot>;
export type ResourceSlotReleased = Message<'ResourceSlotReleased', Slot>;
/** Deleted collections take their resources with them (decision 0012) and so their slots. */
export type CollectionSlotsReleased = Message<'CollectionSlotsReleased', { readonly env: string; readonly folders: readonly string[] }>;
export type ResourceQuotaEvent = ResourceSlotsSeeded | ResourceSlotReserved | ResourceSlotReleased | CollectionSlotsReleased;

export type ReserveResourceSlot = Message<
  'ReserveResourceSlot',
  Slot & {
    readonly limit: number;
    /** The environment's resources before counting began, looked up by the handler while the stream is empty. */
    readonly existing: readonly Omit<Slot, 'env'>[];
  }
>;
export type ReleaseResourceSlot = Message<'ReleaseResourceSlot', Slot>;
export type ReleaseCollectionSlots = Message<'ReleaseCollectionSlots', CollectionSlotsReleased['data']>;
export type ResourceQuotaCommand = ReserveResourceSlot | ReleaseResourceSlot | ReleaseCollectionSlots;

/** `slots`: resource key → folder. */
export type ResourceQuotaState = { readonly seeded: boolean; readonly slots: Readonly<Record<string, string>> };

/** Applies events on one working copy of the slots (a Map) and freezes it back once: a replay copies the slots once. */
function evolveMany(state: ResourceQuotaState, events: readonly ResourceQuotaEvent[]): ResourceQuotaState {
  const slots = new Map(Object.entries(state.slots));
  let seeded = state.seeded;
  for (const event of events) {
    switch (event.type) {
      case 'ResourceSlotsSeeded':
        seeded = true;
        for (const slot of event.data.slots) slots.set(slot.key, slot.folder);
        break;
      case 'ResourceSlotReserved':
        slots.set(event.data.key, event.data.folder);
        break;
      case 'ResourceSlotReleased':
        slots.delete(event.data.key);
        break;
      case 'CollectionSlotsReleased': {
        const folders = new Set(event.data.folders);
        for (const [key, folder] of slots) if (folders.has(folder)) slots.delete(key);
        break;
      }
    }
  }
  return { seeded, slots: Object.fromEntries(slots) };
}

const evolve = (state: ResourceQuotaState, event: ResourceQuotaEvent): ResourceQuotaState => evolveMany(state, [event]);

function decide(command: ResourceQuotaCommand, state: ResourceQuotaState): ResourceQuotaEvent[] {
  switch (command.type) {
    case 'ReserveResourceSlot': {
      const { limit, existing, ...slot } = command.data;
      const seed: ResourceQuotaEvent[] = state.seeded ? [] : [{ type: 'ResourceSlotsSeeded', data: { env: slot.env, slots: existing } }];
      const seeded = seed.reduce(evolve, state);
      if (has(seeded.slots, slot.key)) return seed;
      const current = Object.keys(seeded.slots).length;
      if (current >= limit) {
        throw new DomainError('plan_limit_exceeded', `The environment has reached its limit of ${limit} resources.`, { entity: 'resources', current, limit });
      }
      return [...seed, { type: 'ResourceSlotReserved', data: slot }];
    }
    case 'ReleaseResourceSlot':
      return has(state.slots, command.data.key) ? [{ type: 'ResourceSlotReleased', data: command.data }] : [];
    case 'ReleaseCollectionSlots': {
      const folders = new Set(command.data.folders);
      return Object.values(state.slots).some((folder) => folders.has(folder)) ? [{ type: 'CollectionSlotsReleased', data: command.data }] : [];
    }
  }
}

export const resourceQuota: Decider<ResourceQuotaState, ResourceQuotaCommand, ResourceQuotaEvent> = {
  initialState: () => ({ seeded: false, slots: {} }),
  evolve,
  evolveMany,
  decide,
};
