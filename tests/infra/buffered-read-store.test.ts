import { expect } from 'chai';
import type { StoredEvent } from '../../commands/ports.js';
import { BufferedReadStore } from '../../infra/rebuild/buffered-read-store.js';
import { Database } from '../../infra/sqlite/driver.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { isHeld } from '../../projections/batch-documents.js';
import { matchesFilter } from '../../projections/filter-match.js';
import type { ReadStore } from '../../projections/ports.js';
import { patch, put, readModelTarget, remove, type ReadModelProjection } from '../../projections/read-model-target.js';
import { tempDir } from '../support/temp.js';

/** The same writes, removals and reads against any store; what the reads saw. */
async function script(store: ReadStore): Promise<unknown[]> {
  const seen: unknown[] = [];
  for (let i = 0; i < 12; i++) {
    await store.unitOfWork('c', String(i).padStart(3, '0'), async (tx) => {
      const docs = tx.collection('docs');
      await docs.upsert({ _id: `d${i}`, folder: i % 3 === 0 ? 'gone' : 'kept', n: i, _position: String(i).padStart(3, '0') });
      if (i === 5) await docs.delete('d1');
      if (i === 7) await docs.deleteMany({ $and: [{ folder: 'gone' }, { _position: { $lt: '007' } }] });
      if (i === 9) await docs.upsert({ _id: 'd0', folder: 'back', n: 0, _position: '009' });
      seen.push(await docs.get(`d${Math.max(0, i - 4)}`));
    });
  }
  return seen;
}

/** `Put` writes a document, `Patch` changes one, `Same` answers the current one unchanged, `Drop` deletes one. */
const projection: ReadModelProjection = {
  changes: (event) => {
    const data = event.data as unknown as { id: string; v: number };
    switch (event.type as string) {
      case 'Put':
        return [put('things', data.id, { v: data.v, kind: 'thing' })];
      case 'Patch':
        return [patch('things', data.id, { v: data.v, patched: true })];
      case 'Same':
        return [{ collection: 'things', id: data.id, apply: (current) => current }];
      case 'Drop':
        return [remove('things', data.id)];
      default:
        return [];
    }
  },
};

const events = (...specs: [type: string, id: string, v: number][]): StoredEvent[] =>
  specs.map(([type, id, v], i) => ({ id: `e${i}`, stream: 's', revision: i, position: String(i + 1).padStart(8, '0'), type, data: { id, v }, metadata: {} }) as unknown as StoredEvent);

/** Every row of a read-model file's `rm_things` as stored: the JSON text, so the order of the keys counts too. */
const storedRows = (file: string): unknown[] => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT id, doc FROM rm_things ORDER BY id').all();
  } finally {
    db.close();
  }
};

const rows = async (store: ReadStore) => (await store.collection('docs').find({}, { sort: [['_id', 1]] })).map((d) => ({ ...d }));

describe('the rebuild buffer over a read store', () => {
  it('reads and ends like direct writes, whether it flushes every few documents or once at the end', async () => {
    const direct = new SqliteReadStore(`${tempDir()}/direct.db`);
    const expectedSeen = await script(direct);
    const expected = await rows(direct);
    for (const flushAt of [2, 3, 1000]) {
      const inner = new SqliteReadStore(`${tempDir()}/buffered.db`);
      const buffered = new BufferedReadStore(inner, flushAt);
      expect(await script(buffered), `flush at ${flushAt}`).to.deep.equal(expectedSeen);
      await buffered.flush();
      expect(await rows(inner), `flush at ${flushAt}`).to.deep.equal(expected);
      expect(await inner.checkpoint('c')).to.equal('011');
      await buffered.close();
    }
    await direct.close();
  });

  it('counts documents held, not writes: a counter written at every event never fills the buffer alone', async () => {
    const inner = new SqliteReadStore(`${tempDir()}/counted.db`);
    const buffered = new BufferedReadStore(inner, 3);
    for (let i = 0; i < 10; i++) {
      await buffered.unitOfWork('c', String(i).padStart(3, '0'), async (tx) => tx.collection('usage').upsert({ _id: 'org', writes: i }));
    }
    expect(await inner.collection('usage').count(), 'nothing written out yet').to.equal(0);
    await buffered.unitOfWork('c', '010', async (tx) => {
      await tx.collection('usage').upsert({ _id: 'env', resources: 1 });
      await tx.collection('usage').delete('gone');
    });
    expect(await inner.collection('usage').find({}, { sort: [['_id', 1]] })).to.deep.equal([
      { _id: 'env', resources: 1 },
      { _id: 'org', writes: 9 },
    ]);
    expect(await inner.checkpoint('c')).to.equal('010');
    await buffered.close();
  });

  it('writes a write-through collection out at the end of each unit of work, without its position, and holds the others', async () => {
    const inner = new SqliteReadStore(`${tempDir()}/through.db`);
    const buffered = new BufferedReadStore(inner, 1000, false, new Set(['entries']));
    for (let i = 0; i < 3; i++) {
      await buffered.unitOfWork('c', String(i).padStart(3, '0'), async (tx) => {
        await tx.collection('entries').upsert({ _id: `e${i}`, n: i });
        await tx.collection('docs').upsert({ _id: 'd', n: i });
      });
      expect(await inner.collection('entries').count(), `after unit ${i}`).to.equal(i + 1);
    }
    expect(await inner.collection('docs').count(), 'held until the flush').to.equal(0);
    expect(await inner.checkpoint('c'), 'positions go with the flush').to.equal('');
    expect(await buffered.checkpoint('c')).to.equal('002');
    await buffered.flush();
    expect(await inner.collection('docs').find({})).to.deep.equal([{ _id: 'd', n: 2 }]);
    expect((await inner.collection('entries').find({}, { sort: [['_id', 1]] })).map((e) => e._id)).to.deep.equal(['e0', 'e1', 'e2']);
    expect(await inner.checkpoint('c')).to.equal('002');
    await buffered.close();
  });

  it('matches filters in memory as the SQL translation does: equality, null for missing, ranges, $in, $ne, $exists, $or', () => {
    const doc = { _id: 'a', folder: 'x', n: 3, nested: { k: 'v' }, none: null };
    expect(matchesFilter(doc, { folder: 'x', 'nested.k': 'v' })).to.equal(true);
    expect(matchesFilter(doc, { missing: null, none: null })).to.equal(true);
    expect(matchesFilter(doc, { n: { $gt: 2, $lte: 3 } })).to.equal(true);
    expect(matchesFilter(doc, { n: { $lt: '5' } })).to.equal(false);
    expect(matchesFilter(doc, { folder: { $in: ['y', 'x'] }, n: { $ne: 4 } })).to.equal(true);
    expect(matchesFilter(doc, { none: { $exists: true } })).to.equal(true);
    expect(matchesFilter(doc, { missing: { $exists: true } })).to.equal(false);
    expect(matchesFilter(doc, { $or: [{ folder: 'y' }, { _id: 'a' }] })).to.equal(true);
    expect(matchesFilter(doc, { $and: [{ folder: 'x' }, { n: 4 }] })).to.equal(false);
  });

  it('answers held documents without waiting: every one before the first flush, only those it holds after', async () => {
    const inner = new SqliteReadStore(`${tempDir()}/held.db`);
    const buffered = new BufferedReadStore(inner, 3);
    await buffered.unitOfWork('c', '001', async (tx) => {
      const docs = tx.collection('docs');
      if (!isHeld(docs)) throw new Error('a rebuild buffer holds its documents');
      docs.hold('a', { _id: 'a', n: 1 });
      expect(docs.peek('a')).to.deep.equal({ _id: 'a', n: 1 });
      expect(docs.peek('b'), 'nothing written yet: a document it does not hold does not exist').to.equal(null);
      docs.hold('a', null);
      expect(docs.peek('a'), 'deleted').to.equal(null);
      docs.hold('b', { _id: 'b', n: 2 });
      docs.hold('c', { _id: 'c', n: 3 });
    });
    // Held documents count as upserts do: three ids fill a buffer of three, which the unit of work wrote out.
    expect((await inner.collection('docs').find({}, { sort: [['_id', 1]] })).map((d) => d._id)).to.deep.equal(['b', 'c']);
    await buffered.unitOfWork('c', '002', async (tx) => {
      const docs = tx.collection('docs');
      if (!isHeld(docs)) throw new Error('a rebuild buffer holds its documents');
      expect(docs.peek('b'), 'written out: only the store knows').to.equal(undefined);
      expect(await docs.get('b')).to.deep.equal({ _id: 'b', n: 2 });
    });
    await buffered.close();
  });

  it('folds each change into the document it holds: the rows a live store gets, the order of their keys included, and a replay changes nothing', async () => {
    const log = events(['Put', 'x', 1], ['Patch', 'x', 2], ['Put', 'y', 1], ['Same', 'y', 0], ['Put', 'z', 1], ['Drop', 'z', 0], ['Patch', 'gone', 5], ['Put', 'x', 3], ['Patch', 'y', 4]);
    const last = log[log.length - 1]!.position;
    const liveFile = `${tempDir()}/live.db`;
    const live = new SqliteReadStore(liveFile);
    const liveTarget = readModelTarget(live, [projection], 'test');
    await liveTarget.apply(log.slice(0, 4), log[3]!.position);
    await liveTarget.apply(log.slice(4), last);
    await live.close();

    const rebuiltFile = `${tempDir()}/rebuilt.db`;
    const rebuilt = new SqliteReadStore(rebuiltFile);
    const buffered = new BufferedReadStore(rebuilt);
    const target = readModelTarget(buffered, [projection], 'test');
    await target.apply(log.slice(0, 4), log[3]!.position);
    await target.apply(log.slice(4), last);
    await target.apply(log, last);
    await buffered.flush();
    await buffered.close();

    expect(storedRows(rebuiltFile)).to.deep.equal(storedRows(liveFile));
    expect(storedRows(rebuiltFile)).to.deep.equal([
      { id: 'x', doc: JSON.stringify({ v: 3, kind: 'thing', _id: 'x', _position: '00000008' }) },
      { id: 'y', doc: JSON.stringify({ v: 4, kind: 'thing', _id: 'y', _position: '00000009', patched: true }) },
    ]);
  });
});
