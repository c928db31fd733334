import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Doc, ReadStore } from '../../projections/ports.js';

type Item = Doc & { env: string; n: number; tag: string | null; flag: boolean; created_at: string; nested: { k: string } };

const items = (): Item[] =>
  [1, 2, 3, 4, 5].map((n) => ({
    _id: `item-${n}`,
    env: n <= 4 ? 'e1' : 'e2',
    n,
    tag: n % 2 === 0 ? 'even' : n === 5 ? null : 'odd',
    flag: n > 2,
    created_at: `2026-01-0${n}T00:00:00Z`,
    nested: { k: `k${n}` },
  }));

/** The ReadStore contract: every adapter passes the same suite. */
export function readStoreContract(open: () => Promise<ReadStore>): void {
  let store: ReadStore;
  let name: string;

  const seed = async (): Promise<void> => {
    await store.unitOfWork(`seed-${name}`, '00000000000000000001', async (tx) => {
      for (const item of items()) await tx.collection<Item>(name).upsert(item);
    });
  };
  const ids = (docs: Doc[]): string[] => docs.map((d) => d._id);

  beforeEach(async () => {
    store = await open();
    name = `c_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  });
  afterEach(async () => store.close());

  it('reads nothing from a collection never written', async () => {
    expect(await store.collection(name).get('x')).to.equal(null);
    expect(await store.collection(name).find({})).to.deep.equal([]);
    expect(await store.collection(name).count({})).to.equal(0);
  });

  it('upserts, gets, replaces and deletes documents', async () => {
    await seed();
    const col = store.collection<Item>(name);
    expect(await col.get('item-1')).to.deep.include({ n: 1, tag: 'odd', nested: { k: 'k1' } });
    await store.unitOfWork('w', '00000000000000000002', async (tx) => {
      await tx.collection<Item>(name).upsert({ ...items()[0]!, n: 10 });
      await tx.collection(name).delete('item-2');
    });
    expect((await col.get('item-1'))?.n).to.equal(10);
    expect(await col.get('item-2')).to.equal(null);
  });

  it('filters by equality, null, booleans and nested paths', async () => {
    await seed();
    const col = store.collection<Item>(name);
    expect(ids(await col.find({ env: 'e1', tag: 'even' }))).to.deep.equal(['item-2', 'item-4']);
    expect(ids(await col.find({ tag: null }))).to.deep.equal(['item-5']);
    expect(ids(await col.find({ flag: false }))).to.deep.equal(['item-1', 'item-2']);
    expect(ids(await col.find({ 'nested.k': 'k3' }))).to.deep.equal(['item-3']);
    expect(ids(await col.find({ _id: 'item-4' }))).to.deep.equal(['item-4']);
  });

  it('filters with $in, $ne, ranges and $exists', async () => {
    await seed();
    const col = store.collection<Item>(name);
    expect(ids(await col.find({ n: { $in: [1, 3, 9] } }))).to.deep.equal(['item-1', 'item-3']);
    expect(ids(await col.find({ n: { $in: [] } }))).to.deep.equal([]);
    expect(ids(await col.find({ tag: { $ne: 'odd' } }))).to.deep.equal(['item-2', 'item-4', 'item-5']);
    expect(ids(await col.find({ tag: { $ne: null } }))).to.have.length(4);
    expect(ids(await col.find({ n: { $gt: 1, $lte: 3 } }))).to.deep.equal(['item-2', 'item-3']);
    expect(ids(await col.find({ created_at: { $gte: '2026-01-04T00:00:00Z' } }))).to.deep.equal(['item-4', 'item-5']);
    expect(ids(await col.find({ created_at: { $lt: '2026-01-02T00:00:00Z' } }))).to.deep.equal(['item-1']);
    expect(ids(await col.find({ missing: { $exists: false } }))).to.have.length(5);
    expect(ids(await col.find({ tag: { $exists: true } }))).to.have.length(5);
  });

  it('combines filters with $and and $or', async () => {
    await seed();
    const col = store.collection<Item>(name);
    expect(ids(await col.find({ $or: [{ n: 1 }, { tag: 'even', env: 'e1' }] }))).to.deep.equal(['item-1', 'item-2', 'item-4']);
    expect(ids(await col.find({ $and: [{ n: { $gt: 1 } }, { $or: [{ tag: null }, { n: 2 }] }] }))).to.deep.equal(['item-2', 'item-5']);
  });

  it('sorts, skips, limits and counts', async () => {
    await seed();
    const col = store.collection<Item>(name);
    expect(ids(await col.find({}, { sort: [['created_at', -1]], limit: 2 }))).to.deep.equal(['item-5', 'item-4']);
    expect(ids(await col.find({}, { sort: [['created_at', 1]], skip: 1, limit: 2 }))).to.deep.equal(['item-2', 'item-3']);
    expect(ids(await col.find({}, { sort: [['tag', 1], ['n', -1]] }))).to.deep.equal(['item-5', 'item-4', 'item-2', 'item-3', 'item-1']);
    expect(await col.count({ env: 'e1' })).to.equal(4);
  });

  it('deletes many by filter', async () => {
    await seed();
    let removed = 0;
    await store.unitOfWork('w', '00000000000000000002', async (tx) => {
      removed = await tx.collection(name).deleteMany({ env: 'e1', n: { $lt: 3 } });
    });
    expect(removed).to.equal(2);
    expect(await store.collection(name).count()).to.equal(3);
  });

  it('stores the checkpoint with the unit of work', async () => {
    const consumer = `p-${name}`;
    expect(await store.checkpoint(consumer)).to.equal('');
    await store.unitOfWork(consumer, '00000000000000000007', async (tx) => tx.collection(name).upsert({ _id: 'a' }));
    expect(await store.checkpoint(consumer)).to.equal('00000000000000000007');
  });

  it('accepts an index declaration and still answers the same', async () => {
    await seed();
    await store.ensureIndex(name, ['env', 'created_at']);
    await store.ensureIndex(name, ['env', 'created_at']);
    expect(ids(await store.collection(name).find({ env: 'e2' }, { sort: [['created_at', 1]] }))).to.deep.equal(['item-5']);
  });
}

/** Only where the store has transactions: a failed unit of work leaves nothing behind. */
export function transactionalReadStoreContract(open: () => Promise<ReadStore>): void {
  it('rolls back a failed unit of work together with its checkpoint', async () => {
    const store = await open();
    try {
      const name = `c_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const failed = await store
        .unitOfWork('p', '00000000000000000009', async (tx) => {
          await tx.collection(name).upsert({ _id: 'a' });
          throw new Error('boom');
        })
        .catch((e: unknown) => e);
      expect(failed).to.be.instanceOf(Error);
      expect(await store.collection(name).get('a')).to.equal(null);
      expect(await store.checkpoint('p')).to.equal('');
    } finally {
      await store.close();
    }
  });
}
