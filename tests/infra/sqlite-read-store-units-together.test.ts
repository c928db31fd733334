import { expect } from 'chai';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { tempDir } from '../support/temp.js';

/** Units of work of several consumers in one transaction (the read side's thread, docs/decisions/0311). */
describe('SqliteReadStore.unitsTogether', () => {
  it('commits the units it runs together, each with its checkpoint', async () => {
    const store = new SqliteReadStore(`${tempDir()}/read.db`);
    try {
      await store.unitsTogether(async () => {
        await store.unitOfWork('a', '00000000000000000002', async (tx) => tx.collection('docs').upsert({ _id: 'x', n: 1 }));
        await store.unitOfWork('b', '00000000000000000003', async (tx) => tx.collection('sizes').upsert({ _id: 'y', n: 2 }));
      });
      expect(await store.collection('docs').get('x')).to.deep.equal({ _id: 'x', n: 1 });
      expect(await store.collection('sizes').get('y')).to.deep.equal({ _id: 'y', n: 2 });
      expect(await store.checkpoint('a')).to.equal('00000000000000000002');
      expect(await store.checkpoint('b')).to.equal('00000000000000000003');
      // Units after it run in transactions of their own again.
      await store.unitOfWork('a', '00000000000000000004', async (tx) => tx.collection('docs').upsert({ _id: 'x', n: 3 }));
      expect(await store.checkpoint('a')).to.equal('00000000000000000004');
    } finally {
      await store.close();
    }
  });

  it('stores nothing of any unit when one of them fails, and throws its error', async () => {
    const store = new SqliteReadStore(`${tempDir()}/read.db`);
    try {
      const failed = await store
        .unitsTogether(async () => {
          await store.unitOfWork('a', '00000000000000000002', async (tx) => tx.collection('docs').upsert({ _id: 'x', n: 1 }));
          await store.unitOfWork('b', '00000000000000000003', async () => {
            throw new Error('refused');
          });
        })
        .catch((error: unknown) => error);
      expect(String(failed)).to.match(/refused/);
      expect(await store.collection('docs').get('x')).to.equal(null);
      expect(await store.checkpoint('a')).to.equal('');
      // The table made inside the rolled-back transaction is made again by the next unit.
      await store.unitOfWork('a', '00000000000000000002', async (tx) => tx.collection('docs').upsert({ _id: 'x', n: 1 }));
      expect(await store.collection('docs').get('x')).to.deep.equal({ _id: 'x', n: 1 });
    } finally {
      await store.close();
    }
  });
});
