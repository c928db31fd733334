import { expect } from 'chai';
import type { StoredEvent } from '../../commands/ports.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { readModelTarget, type ReadModelProjection } from '../../projections/read-model-target.js';
import { RecentDocs } from '../../projections/recent-docs.js';
import { tempDir } from '../support/temp.js';

/** A test projection: `Put` writes a document, `Drop` deletes one, `Clear` deletes the collection's documents by filter, `Fail` throws. */
const projection: ReadModelProjection = {
  changes: (event) => {
    const data = event.data as unknown as { id: string; v?: number };
    if (event.type === ('Put' as never)) return [{ collection: 'things', id: data.id, apply: (current) => ({ ...(current ?? {}), _id: data.id, v: data.v }) }];
    if (event.type === ('Drop' as never)) return [{ collection: 'things', id: data.id, apply: () => null }];
    if (event.type === ('Fail' as never)) throw new Error('faulty event');
    return [];
  },
  removals: (event) => (event.type === ('Clear' as never) ? [{ collection: 'things', where: {} }] : []),
};

let n = 0;
const ev = (type: string, data: Record<string, unknown>): StoredEvent => {
  n++;
  return { id: `e${n}`, stream: 's', revision: n, position: String(n).padStart(8, '0'), type, data, metadata: {} } as StoredEvent;
};

describe('read-model batches hand over what they wrote (docs/decisions/0296)', () => {
  let store: SqliteReadStore;
  let recent: RecentDocs;
  let target: ReturnType<typeof readModelTarget>;
  const apply = (...events: StoredEvent[]) => target.apply(events, events[events.length - 1]!.position);
  const stored = async (id: string) => store.collection('things').get(id);

  beforeEach(() => {
    store = new SqliteReadStore(`${tempDir()}/read-models.db`);
    recent = new RecentDocs('things');
    target = readModelTarget(store, [projection], 'test', [recent]);
  });
  afterEach(async () => store.close());

  it('holds each document the last two committed batches left, equal to the stored one, and nothing older', async () => {
    await apply(ev('Put', { id: 'a', v: 1 }), ev('Put', { id: 'b', v: 1 }), ev('Put', { id: 'a', v: 2 }));
    expect(recent.get('a')).to.deep.equal(await stored('a'));
    expect(recent.get('a')).to.include({ v: 2 });
    expect(Object.isFrozen(recent.get('a'))).to.equal(true);
    await apply(ev('Put', { id: 'c', v: 1 }), ev('Drop', { id: 'b' }));
    expect(recent.get('a')).to.deep.equal(await stored('a'));
    expect(recent.get('b')).to.equal(null);
    expect(await stored('b')).to.equal(null);
    expect(recent.get('c')).to.deep.equal(await stored('c'));
    await apply(ev('Put', { id: 'd', v: 1 }));
    // Two batches later the first one's documents are the store's to answer.
    expect(recent.get('a')).to.equal(undefined);
    expect(recent.get('c')).to.deep.equal(await stored('c'));
    expect(recent.get('never')).to.equal(undefined);
  });

  it('drops the older batch when a batch deletes by filter, and everything when a batch fails', async () => {
    await apply(ev('Put', { id: 'a', v: 1 }));
    await apply(ev('Clear', {}), ev('Put', { id: 'b', v: 1 }));
    // `a` was deleted by the filter: not held any more (and not stored).
    expect(recent.get('a')).to.equal(undefined);
    expect(await stored('a')).to.equal(null);
    expect(recent.get('b')).to.deep.equal(await stored('b'));
    let failed = false;
    await apply(ev('Put', { id: 'c', v: 1 }), ev('Fail', {})).catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect(await stored('c')).to.equal(null);
    expect(recent.get('b')).to.equal(undefined);
    expect(recent.get('c')).to.equal(undefined);
  });
});
