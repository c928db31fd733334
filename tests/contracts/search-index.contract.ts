import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { DeliveryDoc, SearchIndex } from '../../projections/ports.js';

const doc = (env: string, folder: string, n: number, data: Record<string, unknown> | null = { title: `t${n}` }): DeliveryDoc => ({
  env,
  folder,
  key: `k${String(n).padStart(3, '0')}`,
  created_at: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}Z`,
  updated_at: '2026-02-01T00:00:00Z',
  owner: null,
  data,
});

/** The SearchIndex contract (documents and cursor lists): every adapter passes the same suite. */
export function searchIndexContract(open: () => Promise<SearchIndex>): void {
  let index: SearchIndex;
  let env: string;

  beforeEach(async () => {
    index = await open();
    env = `e${randomUUID().slice(0, 8)}`;
  });
  afterEach(async () => index.close());

  const put = async (...docs: DeliveryDoc[]): Promise<void> =>
    index.unitOfWork('t', '00000000000000000001', async (tx) => {
      for (const d of docs) await tx.index(d);
    });

  it('indexes a published document and gets it by key', async () => {
    await put(doc(env, 'f', 1, { title: 'Hello', n: 3 }));
    const got = await index.get(env, 'f', 'k001');
    expect(got).to.deep.equal(doc(env, 'f', 1, { title: 'Hello', n: 3 }));
    expect(await index.get(env, 'other', 'k001')).to.equal(null);
  });

  it('never serves a document without published data', async () => {
    await put(doc(env, 'f', 1, null), doc(env, 'f', 2));
    expect(await index.get(env, 'f', 'k001')).to.equal(null);
    const page = await index.list(env, 'f', { limit: 10 });
    expect(page.items.map((d) => d.key)).to.deep.equal(['k002']);
  });

  it('replaces a document on re-index and removes it', async () => {
    await put(doc(env, 'f', 1));
    await put(doc(env, 'f', 1, { title: 'new' }));
    expect((await index.get(env, 'f', 'k001'))?.data).to.deep.equal({ title: 'new' });
    await index.unitOfWork('t', '00000000000000000002', async (tx) => tx.remove(env, 'f', 'k001'));
    expect(await index.get(env, 'f', 'k001')).to.equal(null);
  });

  it('removes every document of one collection and nothing else', async () => {
    await put(doc(env, 'f', 1), doc(env, 'f', 2, null), doc(env, 'g', 3));
    await index.unitOfWork('t', '00000000000000000002', async (tx) => {
      await tx.index(doc(env, 'f', 4));
      await tx.removeFolder(env, 'f');
      expect(await tx.get(env, 'f', 'k001')).to.equal(null);
      await tx.index(doc(env, 'f', 5));
    });
    expect((await index.list(env, 'f', { limit: 10 })).items.map((d) => d.key)).to.deep.equal(['k005']);
    expect(await index.get(env, 'f', 'k001')).to.equal(null);
    expect(await index.get(env, 'g', 'k003')).to.not.equal(null);
  });

  it('lists a collection in pages forward and backward with cursors', async () => {
    await put(...[5, 3, 1, 4, 2].map((n) => doc(env, 'f', n)), doc(env, 'g', 9));
    const first = await index.list(env, 'f', { limit: 2 });
    expect(first.items.map((d) => d.key)).to.deep.equal(['k001', 'k002']);
    expect(first.hasMore).to.equal(true);
    const last = first.items[1]!;
    const second = await index.list(env, 'f', { limit: 2, after: { created_at: last.created_at, key: last.key } });
    expect(second.items.map((d) => d.key)).to.deep.equal(['k003', 'k004']);
    const third = await index.list(env, 'f', { limit: 2, after: { created_at: second.items[1]!.created_at, key: 'k004' } });
    expect(third.items.map((d) => d.key)).to.deep.equal(['k005']);
    expect(third.hasMore).to.equal(false);
    const back = await index.list(env, 'f', { limit: 2, before: { created_at: third.items[0]!.created_at, key: 'k005' } });
    expect(back.items.map((d) => d.key)).to.deep.equal(['k003', 'k004']);
    expect(back.hasMore).to.equal(true);
  });

  it('stores the checkpoint with the unit of work', async () => {
    const consumer = `c-${env}`;
    expect(await index.checkpoint(consumer)).to.equal('');
    await index.unitOfWork(consumer, '00000000000000000042', async () => undefined);
    expect(await index.checkpoint(consumer)).to.equal('00000000000000000042');
  });
}

/** Owner-restricted lists (strict-reference children), same suite for every adapter. */
export function searchIndexOwnerContract(open: () => Promise<SearchIndex>): void {
  it('lists only the documents of the given owners, in pages', async () => {
    const index = await open();
    try {
      const env = `e${randomUUID().slice(0, 8)}`;
      const owned = (n: number, owner: string | null): DeliveryDoc => ({ ...doc(env, 'f', n), owner });
      await index.unitOfWork('t', '00000000000000000001', async (tx) => {
        for (const d of [owned(1, 'p1'), owned(2, 'p2'), owned(3, 'p1'), owned(4, null), owned(5, 'p3')]) await tx.index(d);
      });
      const first = await index.list(env, 'f', { limit: 1, owners: ['p1', 'p3'] });
      expect(first.items.map((d) => d.key)).to.deep.equal(['k001']);
      expect(first.hasMore).to.equal(true);
      const rest = await index.list(env, 'f', { limit: 5, owners: ['p1', 'p3'], after: { created_at: first.items[0]!.created_at, key: 'k001' } });
      expect(rest.items.map((d) => d.key)).to.deep.equal(['k003', 'k005']);
      expect((await index.list(env, 'f', { limit: 5, owners: [] })).items).to.deep.equal([]);
    } finally {
      await index.close();
    }
  });
}
