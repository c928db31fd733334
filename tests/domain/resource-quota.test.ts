import { expect } from 'chai';
import {
  resourceQuota,
  type ReleaseResourceSlot,
  type ReserveResourceSlot,
  type ResourceQuotaEvent,
} from '../../domain/resource-quota/decider.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(resourceQuota);
const reserve = (key: string, limit = 2, existing: ReserveResourceSlot['data']['existing'] = []): ReserveResourceSlot => ({
  type: 'ReserveResourceSlot',
  data: { env: 'e', folder: 'c1', key, limit, existing },
});
const release = (key: string): ReleaseResourceSlot => ({ type: 'ReleaseResourceSlot', data: { env: 'e', folder: 'c1', key } });
const seeded = (...keys: string[]): ResourceQuotaEvent => ({ type: 'ResourceSlotsSeeded', data: { env: 'e', slots: keys.map((key) => ({ folder: 'c1', key })) } });
const reserved = (key: string, folder = 'c1'): ResourceQuotaEvent => ({ type: 'ResourceSlotReserved', data: { env: 'e', folder, key } });
const released = (key: string): ResourceQuotaEvent => ({ type: 'ResourceSlotReleased', data: { env: 'e', folder: 'c1', key } });

describe('resource quota decider', () => {
  it('seeds an empty count with the resources that already exist, then reserves the new key', () => {
    spec.given([]).when(reserve('r2', 2, [{ folder: 'c1', key: 'r1' }])).then([seeded('r1'), reserved('r2')]);
  });

  it('reserves a slot without seeding again once the count is seeded', () => {
    spec.given([seeded(), reserved('r1')]).when(reserve('r2', 2, [{ folder: 'c1', key: 'ignored' }])).then([reserved('r2')]);
  });

  it('refuses a new key at the limit with plan_limit_exceeded, entity resources, current and limit, no upgrade_url', () => {
    spec.given([seeded(), reserved('r1'), reserved('r2')]).when(reserve('r3')).thenThrows('plan_limit_exceeded', { entity: 'resources', current: 2, limit: 2 });
    const detail = (() => {
      try {
        resourceQuota.decide(reserve('r3'), [seeded('r1', 'r2')].reduce(resourceQuota.evolve, resourceQuota.initialState()));
      } catch (error) {
        return (error as { detail: Record<string, unknown> }).detail;
      }
      return null;
    })();
    expect(detail).to.deep.equal({ entity: 'resources', current: 2, limit: 2 });
  });

  it('counts seeded resources towards the limit', () => {
    spec.given([]).when(reserve('r3', 2, [{ folder: 'c1', key: 'r1' }, { folder: 'c2', key: 'r2' }])).thenThrows('plan_limit_exceeded', { current: 2 });
  });

  it('is idempotent: reserving a key that holds a slot again appends nothing, even at the limit', () => {
    spec.given([seeded(), reserved('r1'), reserved('r2')]).when(reserve('r1')).then([]);
  });

  it('releases the slot of a deleted resource, which frees it for the next key', () => {
    spec.given([seeded(), reserved('r1')]).when(release('r1')).then([released('r1')]);
    spec.given([seeded(), reserved('r1'), reserved('r2'), released('r1')]).when(reserve('r3')).then([reserved('r3')]);
  });

  it('releases a seeded resource', () => {
    spec.given([seeded('r1')]).when(release('r1')).then([released('r1')]);
  });

  it('treats a release of a key without a slot as a no-op (never counted, or released already)', () => {
    spec.given([seeded(), reserved('r1')]).when(release('r9')).then([]);
    spec.given([seeded(), reserved('r1'), released('r1')]).when(release('r1')).then([]);
    spec.given([]).when(release('r1')).then([]);
  });

  it('releases the slots of deleted collections, and nothing when they hold none', () => {
    const drop = { type: 'ReleaseCollectionSlots', data: { env: 'e', folders: ['c2'] } } as const;
    spec.given([seeded(), reserved('r1'), reserved('r2', 'c2')]).when(drop).then([{ type: 'CollectionSlotsReleased', data: { env: 'e', folders: ['c2'] } }]);
    spec.given([seeded(), reserved('r1')]).when(drop).then([]);
    spec
      .given([seeded(), reserved('r1'), reserved('r2', 'c2'), { type: 'CollectionSlotsReleased', data: { env: 'e', folders: ['c2'] } }])
      .when(reserve('r3'))
      .then([reserved('r3')]);
  });

  it('does not see Object.prototype names as slots', () => {
    spec.given([seeded()]).when(reserve('constructor', 1)).then([reserved('constructor')]);
    spec.given([seeded()]).when(release('toString')).then([]);
  });
});
