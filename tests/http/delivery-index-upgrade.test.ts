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
 * Rewrites search_text as releases before 0378 stored it: an FTS5 table holding its texts (read
 * back from the documents: the test's searchable fields are top-level strings), each row at the
 * row id `rowid` gives it (rows by document, last document first).
 */
function withStoredTexts(db: InstanceType<typeof Database>, rowid: (trow: number, i: number) => number): number {
  type Row = { trow: number; doc: number; field: string; locale: string; body: string };
  const rows = db
    .prepare<[], Row>("SELECT s.rowid AS trow, s.doc, s.field, s.locale, json_extract(d.data, '$.' || s.field) AS body FROM search_text s JOIN docs d ON d.rowid = s.doc ORDER BY s.doc DESC, s.rowid")
    .all();
  db.transaction(() => {
    // FTS5 (3.53) leaves a contentless_unindexed table's _content table behind when it drops it,
    // and the driver's defensive mode refuses to drop that table: unsafe mode for this one drop.
    db.exec('DROP TABLE search_vocab; DROP TABLE search_text');
    db.unsafeMode(true);
    db.exec('DROP TABLE search_text_content');
    db.unsafeMode(false);
    db.exec(`DELETE FROM doc_texts;
      CREATE VIRTUAL TABLE search_text USING fts5(body, doc UNINDEXED, field UNINDEXED, locale UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE search_vocab USING fts5vocab(search_text, 'row');`);
    rows.forEach((row, i) => {
      const at = rowid(row.trow, i);
      db.prepare('INSERT INTO search_text (rowid, body, doc, field, locale) VALUES (?, ?, ?, ?, ?)').run(BigInt(at), row.body, row.doc, row.field, row.locale);
      db.prepare('INSERT INTO doc_texts (doc, trow) VALUES (?, ?)').run(row.doc, at);
    });
  })();
  return rows.length;
}

/**
 * Rewrites a stopped service's search rows as a release before 0337 stored them: one row id
 * sequence for every collection, no collection numbers, the in-memory index's generation table.
 */
function downgradeSearchRows(dataDir: string): number {
  const db = new Database(join(dataDir, 'delivery.db'));
  try {
    const rows = withStoredTexts(db, (_, i) => i + 1);
    db.exec('DELETE FROM search_scopes; CREATE TABLE search_generation (id INTEGER PRIMARY KEY, value INTEGER NOT NULL); INSERT INTO search_generation VALUES (1, 7)');
    return rows;
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

/** Rewrites a stopped service's search rows as releases 0337 to 0378 stored them: the FTS5 table holding its texts, no `rows_per_doc`. */
function downgradeTextTable(dataDir: string): number {
  const db = new Database(join(dataDir, 'delivery.db'));
  try {
    const rows = withStoredTexts(db, (trow) => trow);
    db.exec('ALTER TABLE search_scopes DROP COLUMN rows_per_doc');
    return rows;
  } finally {
    db.close();
  }
}

describe('HTTP: a delivery index whose FTS5 table holds its texts keeps being searched (docs/decisions/0378)', function () {
  this.timeout(60_000);
  let s: TestService | undefined;
  after(() => s?.stop());

  it('copies the rows into the contentless table at start, counts each collection\'s rows per document and answers every search as before', async () => {
    s = await startTestService();
    const fields = [{ key: 'title', type: 'string', searchable: true }, { key: 'body', type: 'text', searchable: true }];
    const fruit = await searchableCollection(s, 'fruit', fields, 'fruit');
    for (const [title, body] of [['apple pie', 'a pie of apples and pears'], ['pear tart', 'pears baked in a tart'], ['plum jam', 'plums, pears and an apple']]) {
      await publish(s, fruit, { title, body });
    }
    const searches = [{ find_text: { query: 'apple pear' } }, { find_text: { query: 'aple' , threshold: 0.7 } }, { find_phrase: { query: 'apple pie' } }, { find_text: { query: 'pears tart' } }];
    const before = [];
    for (const body of searches) before.push(await search(s, 'fruit/fruit', body));
    for (const r of before) expect(r.status).to.equal(200);
    expect(before[0]!.body.results).to.have.length(3);
    const dataDir = s.dataDir;
    await s.stop();
    s = undefined;
    expect(downgradeTextTable(dataDir)).to.equal(6);

    s = await startTestService({}, dataDir);
    const restarted = { ...s, delivery: `${s.service.urls.delivery}/${s.env}` } as TestService;
    for (const [i, body] of searches.entries()) {
      const r = await search(restarted, 'fruit/fruit', body);
      expect(r.status, JSON.stringify(body)).to.equal(200);
      expect(r.body, JSON.stringify(body)).to.deep.equal(before[i]!.body);
    }
    const db = new Database(join(dataDir, 'delivery.db'), { readonly: true });
    try {
      expect(db.prepare<[], string>("SELECT sql FROM sqlite_master WHERE name = 'search_text'").pluck().get()).to.include('contentless_unindexed = 1');
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'search_text_%'").get()).to.deep.equal({ n: 5 });
      expect(db.prepare('SELECT rows_per_doc AS r FROM search_scopes').all()).to.deep.equal([{ r: 2 }]);
    } finally {
      db.close();
    }
    await publish(s, fruit, { title: 'pear cider', body: 'pressed pears' });
    const after = await search(restarted, 'fruit/fruit', { find_text: { query: 'cider' } });
    expect(after.body.results.map((r: { data: { title: string } }) => r.data.title)).to.deep.equal(['pear cider']);
  });
});
