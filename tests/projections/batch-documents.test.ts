import { expect } from 'chai';
import { BatchDocuments, batchOver, HOLDS_DOCUMENTS } from '../../projections/batch-documents.js';
import type { Doc, ReadCollection, ReadStoreTx } from '../../projections/ports.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { tempDir } from '../support/temp.js';

/** A store transaction that counts what reaches it. */
function counting(tx: ReadStoreTx) {
  const calls = { get: 0, upsert: 0, delete: 0, deleteMany: 0 };
  const counted: ReadStoreTx = {
    collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
      const c = tx.collection<T>(name);
      return {
        get: (id) => (calls.get++, c.get(id)),
        upsert: (doc) => (calls.upsert++, c.upsert(doc)),
        delete: (id) => (calls.delete++, c.delete(id)),
        deleteMany: (filter) => (calls.deleteMany++, c.deleteMany(filter)),
        find: (filter, options) => c.find(filter, options),
        count: (filter) => c.count(filter),
      };
    },
  };
  return { calls, counted };
}

describe('projection batches: each document read and written once (docs/decisions/0194)', () => {
  let store: SqliteReadStore;
  beforeEach(() => {
    store = new SqliteReadStore(`${tempDir()}/read-models.db`);
  });
  afterEach(async () => store.close());

  it('writes a document that several events change once, in its last state, and reads it from the store once', async () => {
    let calls = { get: 0, upsert: 0, delete: 0, deleteMany: 0 };
    await store.unitOfWork('c', '1', async (tx) => {
      const count = counting(tx);
      calls = count.calls;
      const batch = new BatchDocuments(count.counted);
      const docs = batch.collection('counters');
      for (let i = 0; i < 10; i++) {
        const current = await docs.get('env:a');
        await docs.upsert({ _id: 'env:a', n: ((current?.n as number | undefined) ?? 0) + 1 });
      }
      expect(await store.collection('counters').get('env:a')).to.equal(null);
      await batch.flush();
    });
    expect(calls).to.deep.equal({ get: 1, upsert: 1, delete: 0, deleteMany: 0 });
    expect(await store.collection('counters').get('env:a')).to.deep.equal({ _id: 'env:a', n: 10 });
  });

  it('deletes a document the batch deleted last, and keeps one it wrote again after deleting it', async () => {
    await store.unitOfWork('c', '1', async (tx) => {
      await tx.collection('docs').upsert({ _id: 'gone', v: 1 });
      await tx.collection('docs').upsert({ _id: 'back', v: 1 });
    });
    await store.unitOfWork('c', '2', async (tx) => {
      const batch = new BatchDocuments(tx);
      const docs = batch.collection('docs');
      await docs.delete('gone');
      expect(await docs.get('gone')).to.equal(null);
      await docs.delete('back');
      await docs.upsert({ _id: 'back', v: 2 });
      await batch.flush();
    });
    expect(await store.collection('docs').get('gone')).to.equal(null);
    expect(await store.collection('docs').get('back')).to.deep.equal({ _id: 'back', v: 2 });
  });

  it('writes what is pending before a bulk deletion or a query, which then see the batch as it is', async () => {
    await store.unitOfWork('c', '1', async (tx) => {
      const batch = new BatchDocuments(tx);
      const docs = batch.collection('docs');
      await docs.upsert({ _id: 'a', folder: 'x' });
      await docs.upsert({ _id: 'b', folder: 'y' });
      expect(await docs.count({ folder: 'x' })).to.equal(1);
      expect(await docs.deleteMany({ folder: 'x' })).to.equal(1);
      expect(await docs.get('a')).to.equal(null);
      expect((await docs.find({})).map((d) => d._id)).to.deep.equal(['b']);
      await batch.flush();
    });
    expect(await store.collection('docs').count()).to.equal(1);
  });

  it('batches over a store transaction, but not over one that holds its documents in memory (docs/decisions/0295)', async () => {
    await store.unitOfWork('c', '1', async (tx) => {
      const { calls, counted } = counting(tx);
      const batched = batchOver(counted);
      expect(batched).to.be.instanceOf(BatchDocuments);
      await batched.collection('docs').upsert({ _id: 'a', n: 1 });
      await batched.collection('docs').upsert({ _id: 'a', n: 2 });
      expect(calls.upsert).to.equal(0);
      await batched.flush();
      expect(calls.upsert).to.equal(1);

      const inMemory = counting(tx);
      const direct = batchOver(Object.assign(inMemory.counted, { [HOLDS_DOCUMENTS]: true as const }));
      expect(direct).not.to.be.instanceOf(BatchDocuments);
      await direct.collection('docs').upsert({ _id: 'b', n: 1 });
      await direct.collection('docs').upsert({ _id: 'b', n: 2 });
      // Each write reaches the holding transaction at once; its flush adds nothing.
      expect(inMemory.calls.upsert).to.equal(2);
      expect(await direct.collection('docs').get('b')).to.deep.include({ n: 2 });
      await direct.flush();
      expect(inMemory.calls.upsert).to.equal(2);
    });
    expect(await store.collection('docs').get('a')).to.deep.include({ n: 2 });
  });
});
