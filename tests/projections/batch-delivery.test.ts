import { expect } from 'chai';
import { BatchDelivery } from '../../projections/batch-delivery.js';
import type { DeliveryDoc, SearchIndexTx } from '../../projections/ports.js';

const doc = (key: string, data: Record<string, unknown> | null, folder = 'f'): DeliveryDoc => ({
  env: 'e',
  folder,
  key,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  owner: null,
  data,
});

/** A delivery transaction that records every call that reaches it, over a map of documents. */
function recording(initial: readonly DeliveryDoc[] = []) {
  const calls: string[] = [];
  const docs = new Map(initial.map((d) => [d.key, d]));
  const metas = new Map<string, unknown>();
  const tx: SearchIndexTx = {
    get: async (_env, _folder, key) => (calls.push(`get ${key}`), docs.get(key) ?? null),
    index: async (d) => {
      calls.push(`index ${d.key} ${JSON.stringify(d.data)}`);
      docs.set(d.key, d);
    },
    remove: async (_env, _folder, key) => {
      calls.push(`remove ${key}`);
      docs.delete(key);
    },
    removeFolder: async (_env, folder) => {
      calls.push(`removeFolder ${folder}`);
      for (const [key, d] of docs) if (d.folder === folder) docs.delete(key);
    },
    meta: async (id) => (calls.push(`meta ${id}`), metas.get(id) ?? null),
    setMeta: async (id, value) => {
      calls.push(`setMeta ${id}`);
      metas.set(id, value);
    },
    indexSearch: async (_env, _folder, key) => void calls.push(`indexSearch ${key}`),
  };
  return { calls, docs, tx };
}

describe('delivery projection batches: each document read and written once (docs/decisions/0194)', () => {
  it('indexes a document changed twice in a batch once, in its last state, reading it from the index once', async () => {
    const { calls, tx } = recording();
    const batch = new BatchDelivery(tx);
    expect(await batch.get('e', 'f', 'a')).to.equal(null);
    await batch.index(doc('a', null));
    expect(await batch.get('e', 'f', 'a')).to.deep.equal(doc('a', null));
    await batch.index(doc('a', { title: 'x' }));
    expect(calls).to.deep.equal(['get a']);
    await batch.flush();
    expect(calls).to.deep.equal(['get a', 'index a {"title":"x"}']);
  });

  it("writes a document before its search entries, and a later change of it after them, as the events came", async () => {
    const { calls, tx } = recording();
    const batch = new BatchDelivery(tx);
    await batch.index(doc('a', { v: 1 }));
    await batch.indexSearch('e', 'f', 'a', { texts: [], vectors: [] });
    await batch.index(doc('a', { v: 2 }));
    await batch.remove('e', 'f', 'b');
    await batch.flush();
    expect(calls).to.deep.equal(['index a {"v":1}', 'indexSearch a', 'index a {"v":2}', 'remove b']);
  });

  it('writes what is pending before a collection is removed, and reads the index again after it', async () => {
    const { calls, docs, tx } = recording([doc('old', { v: 0 }, 'gone')]);
    const batch = new BatchDelivery(tx);
    await batch.index(doc('new', { v: 1 }, 'gone'));
    expect(await batch.get('e', 'gone', 'old')).to.deep.equal(doc('old', { v: 0 }, 'gone'));
    await batch.removeFolder('e', 'gone');
    expect(await batch.get('e', 'gone', 'new')).to.equal(null);
    await batch.flush();
    expect(calls).to.deep.equal(['get old', 'index new {"v":1}', 'removeFolder gone', 'get new']);
    expect(docs.size).to.equal(0);
  });

  it('reads each search metadata value once per batch, and again after the batch sets it (docs/decisions/0326)', async () => {
    const { calls, tx } = recording();
    const batch = new BatchDelivery(tx);
    expect(await batch.meta('fields')).to.equal(null);
    expect(await batch.meta('fields')).to.equal(null);
    await batch.setMeta('fields', { v: 1 });
    expect(await batch.meta('fields')).to.deep.equal({ v: 1 });
    expect(await batch.meta('fields')).to.deep.equal({ v: 1 });
    expect(await batch.meta('other')).to.equal(null);
    expect(calls).to.deep.equal(['meta fields', 'setMeta fields', 'meta fields', 'meta other']);
    // A new batch reads the index again.
    expect(await new BatchDelivery(tx).meta('fields')).to.deep.equal({ v: 1 });
    expect(calls.slice(-1)).to.deep.equal(['meta fields']);
  });
});
