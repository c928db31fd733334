import { expect } from 'chai';
import { RequestDocs } from '../../infra/http/request-docs.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { tempDir } from '../support/temp.js';

/** The documents every management request reads first, kept until the read models' next batch (docs/decisions/0270). */
describe('management requests: documents kept between read-model batches', () => {
  let store: SqliteReadStore;
  beforeEach(() => {
    store = new SqliteReadStore(`${tempDir()}/read.db`);
  });
  afterEach(async () => store.close());

  const write = (n: number, docs: { collection: string; doc: { _id: string } & Record<string, unknown> }[]) =>
    store.unitOfWork('read-models', String(n).padStart(20, '0'), async (tx) => {
      for (const { collection, doc } of docs) await tx.collection(collection).upsert(doc);
    });

  it('answers a kept document until forgotten, then what the store holds', async () => {
    const docs = new RequestDocs(store, new Set(['users']));
    await write(1, [{ collection: 'users', doc: { _id: 'u1', name: 'Ada' } }]);
    expect(await docs.reads.collection('users').get('u1')).to.deep.equal({ _id: 'u1', name: 'Ada' });
    await write(2, [{ collection: 'users', doc: { _id: 'u1', name: 'Grace', deleted_at: 'now' } }]);
    expect((await docs.reads.collection('users').get('u1'))?.name).to.equal('Ada');
    docs.forget();
    expect(await docs.reads.collection('users').get('u1')).to.deep.equal({ _id: 'u1', name: 'Grace', deleted_at: 'now' });
  });

  it('keeps a missing document as missing until forgotten', async () => {
    const docs = new RequestDocs(store, new Set(['environments']));
    expect(await docs.reads.collection('environments').get('e1')).to.equal(null);
    await write(1, [{ collection: 'environments', doc: { _id: 'e1', organization: 'o1' } }]);
    expect(await docs.reads.collection('environments').get('e1')).to.equal(null);
    docs.forget();
    expect((await docs.reads.collection('environments').get('e1'))?.organization).to.equal('o1');
  });

  it('hands out one frozen document to every reader, and reads other collections and queries from the store each time', async () => {
    const docs = new RequestDocs(store, new Set(['users']));
    await write(1, [
      { collection: 'users', doc: { _id: 'u1', organization: 'o1' } },
      { collection: 'roles', doc: { _id: 'r1', kind: 'management' } },
    ]);
    const [a, b] = await Promise.all([docs.reads.collection('users').get('u1'), docs.reads.collection('users').get('u1')]);
    expect(a).to.equal(b);
    expect(Object.isFrozen(a)).to.equal(true);
    expect(await docs.reads.collection('users').count({ organization: 'o1' })).to.equal(1);
    await write(2, [
      { collection: 'users', doc: { _id: 'u2', organization: 'o1' } },
      { collection: 'roles', doc: { _id: 'r1', kind: 'delivery' } },
    ]);
    expect(await docs.reads.collection('users').count({ organization: 'o1' })).to.equal(2);
    expect((await docs.reads.collection('users').find({ organization: 'o1' })).map((d) => d._id)).to.deep.equal(['u1', 'u2']);
    expect((await docs.reads.collection('roles').get('r1'))?.kind).to.equal('delivery');
    expect(await docs.reads.checkpoint('read-models')).to.equal('00000000000000000002');
  });
});
