import { expect } from 'chai';
import { Database } from '../../infra/sqlite/driver.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { rebuildCli } from '../../infra/cli/rebuild-cli.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

type Rows = Record<string, unknown[]>;

/** Every read-model table of read-models.db with its rows, the checkpoints, and every index. */
function readModels(dataDir: string): Rows {
  const db = new Database(join(dataDir, 'read-models.db'), { readonly: true });
  try {
    const tables = db.prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'rm\\_%' ESCAPE '\\' OR name = 'checkpoints') ORDER BY name`).all();
    const indexes = db.prepare(`SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`).all();
    return { indexes, ...Object.fromEntries(tables.map(({ name }) => [name, db.prepare(`SELECT * FROM ${name} ORDER BY 1`).all()])) };
  } finally {
    db.close();
  }
}

/** The delivery documents of an index file (row ids aside). */
function deliveryDocs(file: string): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT env, folder, key, created_at, updated_at, owner, data FROM docs ORDER BY env, folder, key').all();
  } finally {
    db.close();
  }
}

/** The schema of an index file (the rebuild bulk-loads into the same one). */
function deliverySchema(file: string): { schema: { name: string }[] } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      schema: db.prepare<[], { name: string }>(`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'docs\\_fts\\_%' ESCAPE '\\' AND name NOT LIKE 'docs\\_vec\\_%' ESCAPE '\\' ORDER BY name`).all(),
    };
  } finally {
    db.close();
  }
}

/**
 * The search entries of an index file by document (full-text rows per field and locale, each
 * with its indexed words in order: the table is contentless, docs/decisions/0378; vectors), and
 * the projection's metadata.
 */
function deliverySearch(file: string): { text: unknown[]; vectors: unknown[]; meta: unknown[] } {
  const db = new Database(file, { readonly: true });
  try {
    db.exec("CREATE VIRTUAL TABLE temp.search_words USING fts5vocab(main, search_text, 'instance')");
    const words = "(SELECT group_concat(term, ' ') FROM (SELECT term FROM temp.search_words w WHERE w.doc = s.rowid ORDER BY w.offset)) AS body";
    return {
      text: db.prepare(`SELECT d.key, s.field, s.locale, ${words} FROM search_text s JOIN docs d ON d.rowid = s.doc ORDER BY d.key, s.field, s.locale`).all(),
      vectors: db.prepare('SELECT d.key, v.dims, v.bytes FROM doc_vectors v JOIN docs d ON d.rowid = v.doc ORDER BY d.key, v.dims, v.bytes').all(),
      meta: db.prepare('SELECT id, value FROM search_meta ORDER BY id').all(),
    };
  } finally {
    db.close();
  }
}

async function rebuild(dataDir: string) {
  const out = new PassThrough();
  const err = new PassThrough();
  const text: string[] = [];
  const progress: string[] = [];
  out.on('data', (c: Buffer) => text.push(c.toString()));
  err.on('data', (c: Buffer) => progress.push(c.toString()));
  const code = await rebuildCli(['--data-dir', dataDir], {}, out, err);
  return { code, out: text.join(''), err: progress.join('') };
}

describe('npm run rebuild: every projection from zero, swapped in under a running service', function () {
  // A rebuild of everything takes seconds; on a loaded 2-core machine more than the default 20 s.
  this.timeout(120_000);
  let s: TestService;
  let articles: string;

  before(async () => {
    s = await startTestService();
    articles = await collectionWithSchema(s, 'articles');
    const doomed = await collectionWithSchema(s, 'doomed');
    const api = await s.api('POST', v1(s, '/api/'), { name: 'Site', prefix: 'site' });
    await s.api('POST', v1(s, `/api/${api.body.key}/collections/`), { folder: articles, allowed_methods: ['get_many', 'get_one'] });
    for (let i = 0; i < 5; i++) {
      const r = await s.api('POST', v1(s, `/collections/${articles}/resources/`), { data: { title: `A${i}`, views: i } });
      expect(r.status).to.equal(201);
      if (i % 2 === 0) {
        const draft = await s.api('POST', v1(s, `/collections/${articles}/resources/${r.body.key}/revisions/`), { data: { title: `A${i} v2` } });
        await s.api('POST', v1(s, `/collections/${articles}/resources/${r.body.key}/revisions/${draft.body.key}/publish/`), {});
      }
      if (i === 3) await s.api('DELETE', v1(s, `/collections/${articles}/resources/${r.body.key}/`));
    }
    const notes = await s.api('POST', v1(s, '/collections/tree/'), { name: 'notes', alias: 'notes', parent: null });
    const version = await s.api('POST', v1(s, `/collections/${notes.body.key}/model/versions/`), {});
    const field = await s.api('POST', v1(s, `/collections/${notes.body.key}/model/versions/${version.body.key}/schema/tree/`), { key: 'body', type: 'text', searchable: true, vectorizable: true });
    expect(field.status, JSON.stringify(field.body)).to.equal(201);
    await s.api('POST', v1(s, `/collections/${notes.body.key}/model/versions/${version.body.key}/publish/`), {});
    for (const body of ['the quick brown fox', 'a lazy dog sleeps']) {
      expect((await s.api('POST', v1(s, `/collections/${notes.body.key}/resources/?wait=true`), { data: { body } })).status).to.equal(201);
    }
    await s.api('POST', v1(s, `/collections/${doomed}/resources/`), { data: { title: 'gone with the collection' } });
    await s.api('DELETE', v1(s, `/collections/tree/collection/?key=${doomed}`));
    await s.api('POST', v1(s, '/permissions/management-api/api-keys/'), { description: 'ci' });
  });
  after(async () => s?.stop());

  it('rebuilds read models identical to the live ones (a damaged one restored) while the service keeps answering, and the service writes on into them', async () => {
    const live = readModels(s.dataDir);
    expect(Object.keys(live)).to.include.members(['rm_resources', 'rm_revisions', 'rm_audit_events', 'checkpoints']);
    expect(live.indexes!.length).to.be.greaterThan(3);
    expect(live.rm_resources).to.have.length(6);
    // A damaged read model: the rebuild from the events restores it.
    const db = new Database(join(s.dataDir, 'read-models.db'));
    db.prepare(`UPDATE rm_resources SET doc = json_set(doc, '$.name', 'damaged')`).run();
    db.prepare('DELETE FROM rm_audit_events WHERE rowid IN (SELECT rowid FROM rm_audit_events LIMIT 3)').run();
    db.close();
    expect(readModels(s.dataDir)).to.not.deep.equal(live);

    const running = rebuild(s.dataDir);
    const during = await s.api('GET', v1(s, `/collections/${articles}/resources/`));
    const result = await running;
    expect(during.status).to.equal(200);
    expect(result.code, result.err).to.equal(0);
    expect(result.out).to.match(/^rebuilt \d+ events in [\d.]+ s \(\d+ events\/s\); read models swapped in at \d+/);
    expect(result.err).to.contain('rebuilding [');

    expect(readModels(s.dataDir)).to.deep.equal(live);
    // The revisions were rebuilt in the delivery thread's scratch file, copied in and removed (docs/decisions/0250).
    expect(existsSync(join(s.dataDir, 'read-models.rebuilding.db'))).to.equal(false);
    expect(result.out).to.match(/main thread cpu [\d.]+ s, delivery thread cpu [\d.]+ s/);

    const added = await s.api('POST', v1(s, `/collections/${articles}/resources/`), { data: { title: 'after the swap' } });
    expect(added.status).to.equal(201);
    const list = await s.api('GET', v1(s, `/collections/${articles}/resources/?limit=100`));
    expect(list.body.count).to.equal(5);
    expect(list.body.results.map((r: { key: string }) => r.key)).to.include(added.body.key);
  });

  it('leaves a delivery index identical to the live one, which the next start takes over and catches up', async () => {
    const rebuilt = join(s.dataDir, 'delivery.rebuilt.db');
    expect(existsSync(rebuilt)).to.equal(true);
    const liveDocs = deliveryDocs(join(s.dataDir, 'delivery.db'));
    const rebuiltDocs = deliveryDocs(rebuilt);
    // The live index also has the resource written after the swap; the rebuilt one catches up at start.
    expect(liveDocs.length).to.equal(rebuiltDocs.length + 1);
    expect(liveDocs).to.deep.include.members(rebuiltDocs);
    const liveSchema = deliverySchema(join(s.dataDir, 'delivery.db'));
    expect(deliverySchema(rebuilt).schema).to.deep.equal(liveSchema.schema);
    // Whole payloads are no longer kept in a full-text table nothing read (docs/decisions/0270).
    expect(liveSchema.schema.map((entry) => entry.name)).to.include('docs').and.not.include('docs_fts');
    // The searchable and vectorizable notes: the same entries and metadata (the resource added after the swap is an article, neither).
    const liveSearch = deliverySearch(join(s.dataDir, 'delivery.db'));
    expect(liveSearch.text).to.have.length(2);
    expect(liveSearch.vectors.length).to.be.greaterThanOrEqual(2);
    expect(liveSearch.meta.length).to.be.greaterThan(0);
    expect(deliverySearch(rebuilt)).to.deep.equal(liveSearch);

    await s.stop();
    s = await startTestService({}, s.dataDir);
    expect(existsSync(rebuilt)).to.equal(false);
    expect(deliveryDocs(join(s.dataDir, 'delivery.db'))).to.deep.equal(liveDocs);
    const delivered = await s.get(`${s.service.urls.delivery}/${s.env}/site/articles/?limit=50`);
    expect(delivered.status).to.equal(200);
    expect(delivered.body.results).to.have.length(5);
  });

  it('fails, leaving no delivery file behind, when the thread rebuilding the delivery index fails (an embeddings endpoint that refuses)', async () => {
    const out = new PassThrough();
    const err = new PassThrough();
    let failure: unknown;
    await rebuildCli(['--data-dir', s.dataDir], { EMBEDDINGS_URL: 'http://127.0.0.1:9/v1' }, out, err).catch((error: unknown) => (failure = error));
    expect(String(failure)).to.match(/fetch failed|ECONNREFUSED/);
    expect(existsSync(join(s.dataDir, 'delivery.rebuilding.db'))).to.equal(false);
    expect(existsSync(join(s.dataDir, 'delivery.rebuilt.db'))).to.equal(false);
    expect(existsSync(join(s.dataDir, 'read-models.rebuilding.db'))).to.equal(false);
    expect((await s.get(`${s.service.urls.delivery}/${s.env}/site/articles/?limit=50`)).status).to.equal(200);
  });

  it('refuses unknown arguments with exit code 2', async () => {
    const out = new PassThrough();
    const err = new PassThrough();
    expect(await rebuildCli(['--bogus'], {}, out, err)).to.equal(2);
  });
});
