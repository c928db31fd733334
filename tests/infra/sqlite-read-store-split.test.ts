import { expect } from 'chai';
import { join } from 'node:path';
import { openSqlite } from '../../infra/sqlite/open.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { SplitReadStore } from '../../infra/sqlite/read-store-split.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';

/** The `rm_` tables of a file and the consumers whose checkpoints it holds. */
function contentsOf(file: string): { tables: string[]; consumers: string[]; rows: (table: string) => number } {
  const db = openSqlite(file);
  try {
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_%' ESCAPE '\\' ORDER BY name")
      .all()
      .map((r) => r.name);
    const consumers = db
      .prepare<[], { consumer: string }>('SELECT consumer FROM checkpoints ORDER BY consumer')
      .all()
      .map((r) => r.consumer);
    const counts = new Map(tables.map((t) => [t, (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n]));
    return { tables, consumers, rows: (table) => counts.get(table) ?? 0 };
  } finally {
    db.close();
  }
}

describe('revisions and usage in a file of their own (READ_SIDE_SPLIT, docs/decisions/0320)', function () {
  this.timeout(60_000);

  it('routes the revisions and usage collections and consumers to the side file, the rest to the main one', async () => {
    const dir = tempDir();
    const store = new SplitReadStore(new SqliteReadStore(join(dir, 'main.db')), new SqliteReadStore(join(dir, 'side.db')));
    try {
      await store.ensureIndex('revisions', ['resource', 'number']);
      await store.unitOfWork('revisions', 'p2', async (tx) => tx.collection('revisions').upsert({ _id: 'r1', resource: 'a', number: 1 }));
      await store.unitOfWork('usage', 'p3', async (tx) => {
        await tx.collection('usage').upsert({ _id: 'env:e', resources: 1 });
        await tx.collection('usage_revisions').upsert({ _id: 'r1', size: 5 });
      });
      await store.unitOfWork('read-models', 'p1', async (tx) => tx.collection('resources').upsert({ _id: 'a', folder: 'f' }));
      expect(await store.collection('revisions').get('r1')).to.deep.equal({ _id: 'r1', resource: 'a', number: 1 });
      expect(await store.collection('usage').find({})).to.deep.equal([{ _id: 'env:e', resources: 1 }]);
      expect(await store.collection('resources').get('a')).to.deep.equal({ _id: 'a', folder: 'f' });
      expect([await store.checkpoint('read-models'), await store.checkpoint('revisions'), await store.checkpoint('usage')]).to.deep.equal(['p1', 'p2', 'p3']);

      // A consumer writing a collection of the other file: refused, and nothing of its unit stored.
      let refused: unknown = null;
      await store
        .unitOfWork('revisions', 'p9', async (tx) => {
          await tx.collection('revisions').upsert({ _id: 'r2' });
          await tx.collection('resources').upsert({ _id: 'b' });
        })
        .catch((error: unknown) => (refused = error));
      expect(String(refused)).to.match(/consumer revisions writes resources/);
      expect(await store.collection('revisions').get('r2')).to.equal(null);
      expect(await store.checkpoint('revisions')).to.equal('p2');
    } finally {
      await store.close();
    }
    const main = contentsOf(join(dir, 'main.db'));
    const side = contentsOf(join(dir, 'side.db'));
    expect(main.tables).to.deep.equal(['rm_resources']);
    expect(main.consumers).to.deep.equal(['read-models']);
    expect(side.tables).to.deep.equal(['rm_revisions', 'rm_usage', 'rm_usage_revisions']);
    expect(side.consumers).to.deep.equal(['revisions', 'usage']);
  });

  for (const thread of ['on', 'off']) {
    it(`answers wait=true creates with their revisions and usage read from revisions.db (READ_SIDE_THREAD=${thread})`, async () => {
      const s = await startTestService({ PLAN: 'pro', READ_SIDE_SPLIT: 'on', READ_SIDE_THREAD: thread });
      let key = '';
      try {
        const folder = await collectionWithSchema(s, 'articles');
        const created = await Promise.all(Array.from({ length: 6 }, (_, i) => s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: `t${i}`, views: i } })));
        for (const r of created) expect(r.status, JSON.stringify(r.body)).to.equal(201);
        key = created[5]!.body.key as string;
        // Read your write from the side file: the revision's payload is there once the answer is.
        const data = await s.api('GET', v1(s, `/collections/${folder}/resources/${key}/data/`));
        expect(data.status).to.equal(200);
        expect(data.body).to.deep.equal({ title: 't5', views: 5 });
        const revisions = await s.api('GET', v1(s, `/collections/${folder}/resources/${key}/revisions/`));
        expect(revisions.status, JSON.stringify(revisions.body)).to.equal(200);
        const org = (await s.api('GET', '/organizations/')).body[0].key as string;
        const usage = await s.api('GET', `/organizations/${org}/usage/`);
        expect(usage.status).to.equal(200);
        expect(usage.body.usage.resources.current).to.equal(6);
        expect(usage.body.storage.data_storage).to.be.above(0);
        if (thread === 'on') expect(s.service.readSideBatches()).to.be.above(0);
      } finally {
        await s.stop();
      }
      const main = contentsOf(join(s.dataDir, 'read-models.db'));
      const side = contentsOf(join(s.dataDir, 'revisions.db'));
      expect(main.tables).to.include('rm_resources');
      expect(main.tables).not.to.include.members(['rm_revisions', 'rm_usage']);
      expect(main.consumers).to.include('read-models');
      expect(main.consumers).not.to.include.members(['revisions', 'usage']);
      expect(side.tables).to.deep.equal(['rm_revisions', 'rm_usage', 'rm_usage_revisions']);
      expect(side.rows('rm_revisions')).to.equal(6);
      expect(side.consumers).to.deep.equal(['revisions', 'usage']);
    });
  }
});
