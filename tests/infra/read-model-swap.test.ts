import { expect } from 'chai';
import { Database } from '../../infra/sqlite/driver.js';
import { clearShadow, SHADOW, swapInReadModels } from '../../infra/sqlite/read-model-swap.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { tempDir } from '../support/temp.js';

describe('swapping rebuilt read-model tables in (SQLite)', () => {
  let file: string;
  let live: SqliteReadStore;

  beforeEach(async () => {
    file = `${tempDir()}/read-models.db`;
    live = new SqliteReadStore(file);
    await live.ensureIndex('things', ['name']);
    await live.unitOfWork('read-models', '005', async (tx) => {
      await tx.collection('things').upsert({ _id: 'a', name: 'live' });
      await tx.collection('stale').upsert({ _id: 'x', name: 'only live has it' });
    });
  });
  afterEach(() => live.close());

  function names(where: string): string[] {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE ${where} ORDER BY name`).all().map((r) => r.name);
    } finally {
      db.close();
    }
  }

  async function rebuilt(position: string): Promise<void> {
    const shadow = new SqliteReadStore(file, SHADOW);
    await shadow.unitOfWork('read-models', position, async (tx) => tx.collection('things').upsert({ _id: 'a', name: 'rebuilt' }));
    await shadow.close();
  }

  it('leaves the reactors\' tables (webhook deliveries, due schedules) and their checkpoints as they are', async () => {
    await live.unitOfWork('webhooks', '006', async (tx) => tx.collection('webhook_deliveries').upsert({ _id: 'w.e', status: 'pending' }));
    await live.unitOfWork('scheduler', '006', async (tx) => tx.collection('scheduler_due').upsert({ _id: 'rev', publish_at: '2030-01-01T00:00:00.000Z' }));
    await rebuilt('007');
    expect(swapInReadModels(file)).to.equal(true);
    expect(await live.collection('webhook_deliveries').get('w.e')).to.include({ status: 'pending' });
    expect(await live.collection('scheduler_due').count()).to.equal(1);
    expect(await live.checkpoint('webhooks')).to.equal('006');
    expect(await live.collection('stale').count()).to.equal(0);
  });

  it('refuses while the live consumer is past the rebuilt position, and changes nothing', async () => {
    await rebuilt('003');
    expect(swapInReadModels(file)).to.equal(false);
    expect(await live.collection('things').get('a')).to.include({ name: 'live' });
    expect(await live.checkpoint('read-models')).to.equal('005');
  });

  it('swaps in one transaction: rebuilt rows and checkpoint, the live indexes, a table the rebuild never wrote emptied', async () => {
    await rebuilt('007');
    expect(await live.collection('things').get('a')).to.include({ name: 'live' });
    expect(swapInReadModels(file)).to.equal(true);
    // The live store's own connections, with their prepared statements, see the new tables at once.
    expect(await live.collection('things').get('a')).to.include({ name: 'rebuilt' });
    expect(await live.collection('stale').count()).to.equal(0);
    expect(await live.checkpoint('read-models')).to.equal('007');
    expect(names(`type = 'index' AND tbl_name = 'rm_things' AND sql IS NOT NULL`)).to.deep.equal(['ix_rm_things_name']);
    expect(names("name LIKE 'rb%'")).to.deep.equal([]);
    await live.unitOfWork('read-models', '008', async (tx) => tx.collection('things').upsert({ _id: 'b', name: 'after' }));
    expect(await live.collection('things').find({ name: 'after' })).to.have.length(1);
    const shadow = new SqliteReadStore(file, SHADOW);
    expect(await shadow.collection('things').count()).to.equal(0);
    await shadow.close();
  });

  it('drops what an interrupted rebuild left', async () => {
    await rebuilt('002');
    clearShadow(file);
    expect(names("name LIKE 'rb%'")).to.deep.equal([]);
    expect(await live.collection('things').get('a')).to.include({ name: 'live' });
  });
});
