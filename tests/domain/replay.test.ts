import { expect } from 'chai';
import fc from 'fast-check';
import { join } from 'node:path';
import { CommandBus } from '../../commands/command-bus.js';
import { collections, type CollectionNode, type CollectionsState } from '../../domain/collections/decider.js';
import type { CollectionsEvent } from '../../domain/collections/events.js';
import type { Decider } from '../../domain/decider.js';
import { resourceQuota, type ResourceQuotaEvent, type ResourceQuotaState } from '../../domain/resource-quota/decider.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { tempDir } from '../support/temp.js';

const at = '2026-01-01T00:00:00.000Z';
const keys = fc.constantFrom('a', 'b', 'c', 'd', '__proto__', 'constructor', 'toString');

const node = (key: string, parent: string | null) => ({
  key, alias: `x${key}`, parent, path: `p.${key}`, strict_reference: false, name: key, auto_remove_revisions: null, auto_remove_schema_versions: null,
});

const collectionEvent: fc.Arbitrary<CollectionsEvent> = fc.oneof(
  fc.tuple(keys, fc.option(keys, { nil: null })).map(([key, parent]) => ({ type: 'CollectionCreated' as const, data: { ...node(key, parent), env: 'e', content_type: 'document' as const, created_at: at } })),
  fc.tuple(keys, fc.array(keys, { maxLength: 3 })).map(([key, moved]) => ({
    type: 'CollectionUpdated' as const,
    data: { ...node(key, null), env: 'e', previous_parent: null, descendants: moved.map((k) => ({ key: k, path: `moved.${k}` })) },
  })),
  keys.map((key) => ({ type: 'CollectionDeleted' as const, data: { env: 'e', key, parent: null, snapshot: { name: key, content_type: 'document' as const, alias: key, path: key, strict_reference: false } } })),
);

/** The one-event-at-a-time evolve the batch must agree with: a copy of the record per event. */
function referenceCollections(state: CollectionsState, event: CollectionsEvent): CollectionsState {
  const has = (k: string) => Object.hasOwn(state.byKey, k);
  const set = (record: CollectionsState['byKey'], k: string, v: CollectionNode): CollectionsState['byKey'] => Object.fromEntries([...Object.entries(record).filter(([x]) => x !== k), [k, v]]);
  switch (event.type) {
    case 'CollectionCreated':
      return { byKey: set(state.byKey, event.data.key, node(event.data.key, event.data.parent)), count: state.count + 1 };
    case 'CollectionUpdated': {
      let byKey = set(state.byKey, event.data.key, node(event.data.key, null));
      for (const moved of event.data.descendants) if (Object.hasOwn(byKey, moved.key)) byKey = set(byKey, moved.key, { ...(byKey[moved.key] as CollectionNode), path: moved.path });
      return { ...state, byKey };
    }
    case 'CollectionDeleted':
      return has(event.data.key) ? { byKey: Object.fromEntries(Object.entries(state.byKey).filter(([k]) => k !== event.data.key)), count: state.count - 1 } : state;
  }
}

const slotEvent: fc.Arbitrary<ResourceQuotaEvent> = fc.oneof(
  fc.array(fc.tuple(keys, fc.constantFrom('f1', 'f2')), { maxLength: 3 }).map((slots) => ({ type: 'ResourceSlotsSeeded' as const, data: { env: 'e', slots: slots.map(([key, folder]) => ({ key, folder })) } })),
  fc.tuple(keys, fc.constantFrom('f1', 'f2')).map(([key, folder]) => ({ type: 'ResourceSlotReserved' as const, data: { env: 'e', key, folder } })),
  fc.tuple(keys, fc.constantFrom('f1', 'f2')).map(([key, folder]) => ({ type: 'ResourceSlotReleased' as const, data: { env: 'e', key, folder } })),
  fc.subarray(['f1', 'f2']).map((folders) => ({ type: 'CollectionSlotsReleased' as const, data: { env: 'e', folders } })),
);

function referenceSlots(state: ResourceQuotaState, event: ResourceQuotaEvent): ResourceQuotaState {
  const entries = Object.entries(state.slots);
  switch (event.type) {
    case 'ResourceSlotsSeeded':
      return { seeded: true, slots: Object.fromEntries([...entries, ...event.data.slots.map((s) => [s.key, s.folder] as const)]) };
    case 'ResourceSlotReserved':
      return { ...state, slots: Object.fromEntries([...entries, [event.data.key, event.data.folder]]) };
    case 'ResourceSlotReleased':
      return { ...state, slots: Object.fromEntries(entries.filter(([k]) => k !== event.data.key)) };
    case 'CollectionSlotsReleased':
      return { ...state, slots: Object.fromEntries(entries.filter(([, f]) => !event.data.folders.includes(f))) };
  }
}

describe('replaying large aggregates', () => {
  it('collections: evolveMany over any events equals evolving them one at a time (prototype-named keys too)', () => {
    fc.assert(
      fc.property(fc.array(collectionEvent, { maxLength: 30 }), fc.nat(30), (events, cut) => {
        const reference = events.reduce(referenceCollections, collections.initialState());
        const batched = collections.evolveMany?.(collections.evolveMany(collections.initialState(), events.slice(0, cut)), events.slice(cut));
        expect(batched).to.deep.equal(reference);
        expect(events.reduce(collections.evolve, collections.initialState())).to.deep.equal(reference);
      }),
      { numRuns: 300 },
    );
  });

  it('resource quota: evolveMany over any events equals evolving them one at a time', () => {
    fc.assert(
      fc.property(fc.array(slotEvent, { maxLength: 30 }), (events) => {
        expect(resourceQuota.evolveMany?.(resourceQuota.initialState(), events)).to.deep.equal(events.reduce(referenceSlots, resourceQuota.initialState()));
      }),
      { numRuns: 300 },
    );
  });

  it('a restart loads 5,000 collections with one batch evolve, not one copy of the tree per event', async () => {
    const store = new SqliteEventStore(join(tempDir(), 'events.db'));
    try {
      const created = Array.from({ length: 5000 }, (_, i) => ({
        id: `e${i}`,
        type: 'CollectionCreated',
        data: { ...node(`k${i}`, null), alias: `alias${i}`, path: `alias${i}`, env: 'e', content_type: 'document', created_at: at },
        metadata: { actor_type: 'system' as const, actor: null, ip_address: null, referer: null, timestamp: at },
      }));
      await store.appendToStream('collections-e', created, 'no_stream');
      const calls = { evolve: 0, evolveMany: 0, events: 0 };
      const counted: Decider<CollectionsState, never, CollectionsEvent> = {
        initialState: collections.initialState,
        decide: () => [],
        evolve: (state, event) => (calls.evolve++, collections.evolve(state, event)),
        evolveMany: (state, events) => (calls.evolveMany++, (calls.events += events.length), collections.evolveMany?.(state, events) ?? state),
      };
      const { state, revision } = await new CommandBus(store).load(counted, 'collections-e');
      expect(calls).to.deep.equal({ evolve: 0, evolveMany: 1, events: 5000 });
      expect(state.count).to.equal(5000);
      expect(Object.keys(state.byKey)).to.have.length(5000);
      expect(revision).to.equal(4999);
    } finally {
      await store.close();
    }
  });
});
