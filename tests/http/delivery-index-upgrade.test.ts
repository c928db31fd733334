import { expect } from 'chai';
import { join } from 'node:path';
import { Database } from '../../infra/sqlite/driver.js';
import { deliveryFixture } from '../support/delivery-fixture.js';
import { publish, search, searchableCollection } from '../support/search.js';
import { startTestService, type TestService } from '../support/service.js';

/** Rewrites a stopped service's delivery index as an earlier release stored it: payloads as JSON text, format version 0. */
function downgradeDeliveryIndex(dataDir: string): void {
  const db = new Database(join(dataDir, 'delivery.db'));
  try {
    db.exec('UPDATE docs SET data = json(data) WHERE data IS NOT NULL');
    db.pragma('user_version = 0');
    const types = db.prepare<[], { t: string }>('SELECT DISTINCT typeof(data) AS t FROM docs WHERE data IS NOT NULL').all();
    expect(types.map((r) => r.t)).to.deep.equal(['text']);
  } finally {
    db.close();
  }
}

describe('HTTP: a data directory whose delivery index holds JSON text keeps being served (docs/decisions/0210)', function () {
  this.timeout(60_000);
  let s: TestService | undefined;
  after(() => s?.stop());

  it('converts the index at start and answers every delivery read as before', async () => {
    s = await startTestService({ PLAN: 'pro' });
    const f = await deliveryFixture(s);
    const reads = [
      'site/articles/',
      'site/articles/?where__views__gte=5&sort=-views',
      'site/articles/?where__tags__includes=tech&fields=title,tags',
      'site/articles/?where__meta.color__in=red,blue&populate=author',
      `site/articles/${f.a[1]}`,
    ];
    const before = [];
    for (const read of reads) before.push(await f.get(read));
    for (const [i, r] of before.entries()) expect(r.status, reads[i]).to.equal(200);
    const dataDir = s.dataDir;
    await s.stop();
    s = undefined;
    downgradeDeliveryIndex(dataDir);

    s = await startTestService({ PLAN: 'pro' }, dataDir);
    // bootstrap.json keeps the first start's address; this start listens on new ports.
    const delivery = `${s.service.urls.delivery}/${s.env}`;
    for (const [i, read] of reads.entries()) {
      const r = await s.get(`${delivery}/${read}`);
      expect(r.status, read).to.equal(200);
      expect(r.body, read).to.deep.equal(before[i]!.body);
      expect(r.headers.get('etag'), read).to.equal(before[i]!.headers.get('etag'));
    }
    const db = new Database(join(dataDir, 'delivery.db'), { readonly: true });
    try {
      expect(db.prepare<[], { t: string }>('SELECT DISTINCT typeof(data) AS t FROM docs WHERE data IS NOT NULL').all().map((r) => r.t)).to.deep.equal(['blob']);
    } finally {
      db.close();
    }
  });
});

/**
 * Rewrites a stopped service's search rows as a release before 0337 stored them: one row id
 * sequence for every collection, no collection numbers, the in-memory index's generation table.
 */
function downgradeSearchRows(dataDir: string): number {
  const db = new Database(join(dataDir, 'delivery.db'));
  try {
    const rows = db.prepare<[], { trow: number }>('SELECT trow FROM doc_texts ORDER BY doc DESC, trow').all();
    db.transaction(() => {
      rows.forEach(({ trow }, i) => {
        db.prepare('UPDATE search_text SET rowid = ? WHERE rowid = ?').run(BigInt(i + 1), trow);
        db.prepare('UPDATE doc_texts SET trow = ? WHERE trow = ?').run(i + 1, trow);
      });
      db.exec('DELETE FROM search_scopes; CREATE TABLE search_generation (id INTEGER PRIMARY KEY, value INTEGER NOT NULL); INSERT INTO search_generation VALUES (1, 7)');
    })();
    return rows.length;
  } finally {
    db.close();
  }
}

describe('HTTP: a delivery index whose search rows share one row id sequence keeps being searched (docs/decisions/0337)', function () {
  this.timeout(60_000);
  let s: TestService | undefined;
  after(() => s?.stop());

  it('gives each collection its row id range at start and answers every search as before, new documents included', async () => {
    s = await startTestService();
    const fields = [{ key: 'title', type: 'string', searchable: true }, { key: 'body', type: 'text', searchable: true }];
    const fruit = await searchableCollection(s, 'fruit', fields, 'fruit');
    const trees = await searchableCollection(s, 'trees', fields, 'trees');
    for (const [collection, title, body] of [
      [fruit, 'apple pie', 'a pie of apples and pears'],
      [trees, 'apple tree', 'an orchard of apple trees'],
      [fruit, 'pear tart', 'pears baked in a tart'],
      [trees, 'pear tree', 'a tree that bears pears'],
    ] as const) {
      await publish(s, collection, { title, body });
    }
    const searches = [
      ['fruit/fruit', { find_text: { query: 'apple pear' } }],
      ['trees/trees', { find_text: { query: 'apple pear tree' } }],
      ['trees/trees', { find_text: { query: 'orchrd' } }],
      ['fruit/fruit', { find_phrase: { query: 'apple pie' } }],
    ] as const;
    const before = [];
    for (const [path, body] of searches) before.push(await search(s, path, body));
    for (const [i, r] of before.entries()) expect(r.status, searches[i]![0]).to.equal(200);
    expect(before[0]!.body.results).to.have.length(2);
    const dataDir = s.dataDir;
    await s.stop();
    s = undefined;
    expect(downgradeSearchRows(dataDir)).to.equal(8);

    s = await startTestService({}, dataDir);
    // bootstrap.json keeps the first start's address; this start listens on new ports.
    const restarted = { ...s, delivery: `${s.service.urls.delivery}/${s.env}` } as TestService;
    for (const [i, [path, body]] of searches.entries()) {
      const r = await search(restarted, path, body);
      expect(r.status, path).to.equal(200);
      expect(r.body, path).to.deep.equal(before[i]!.body);
    }
    const db = new Database(join(dataDir, 'delivery.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM search_text WHERE rowid < 68719476736').get()).to.deep.equal({ n: 0 });
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'search_generation'").get()).to.deep.equal({ n: 0 });
    } finally {
      db.close();
    }
    await publish(s, trees, { title: 'plum tree', body: 'plums and pears' });
    const after = await search(restarted, 'trees/trees', { find_text: { query: 'pears' } });
    expect(after.body.results.map((r: { data: { title: string } }) => r.data.title)).to.have.members(['pear tree', 'plum tree']);
  });
});
