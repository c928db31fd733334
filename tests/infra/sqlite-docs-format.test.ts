import { expect } from 'chai';
import { Database } from '../../infra/sqlite/driver.js';
import { bulkLoadDelivery } from '../../infra/sqlite/delivery-bulk-load.js';
import { DOC_COLUMNS, DOCS_FORMAT, docRowOf, type RawDocRow } from '../../infra/sqlite/docs-format.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import type { DeliveryDoc } from '../../projections/ports.js';
import type { DeliveryQuery } from '../../projections/delivery-query.js';
import { tempDir } from '../support/temp.js';

/** The delivery index's schema before payloads were stored as JSONB (user_version 0). */
const OLD_SCHEMA = `
CREATE TABLE docs (
  rowid INTEGER PRIMARY KEY, env TEXT NOT NULL, folder TEXT NOT NULL, key TEXT NOT NULL,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL, owner TEXT, data TEXT, UNIQUE (env, folder, key)
);
CREATE INDEX docs_by_created ON docs (env, folder, created_at, key);
CREATE VIRTUAL TABLE docs_fts USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
CREATE TABLE checkpoints (consumer TEXT PRIMARY KEY, position TEXT NOT NULL);
`;

const payload = (n: number) => ({ title: `Title ${n}`, views: n * 10, published: n % 2 === 0, tags: ['a', `t${n}`], nested: { deep: { x: `é "q" \u2028 ${n}` } } });

const doc = (n: number, data: Record<string, unknown> | null = payload(n)): DeliveryDoc => ({
  env: 'e1',
  folder: 'f1',
  key: `k${String(n).padStart(3, '0')}`,
  created_at: `2026-01-01T00:00:${String(n).padStart(2, '0')}Z`,
  updated_at: '2026-02-01T00:00:00Z',
  owner: n === 3 ? 'someone' : null,
  data,
});

const DOCS = [1, 2, 3, 4, 5, 6].map((n) => doc(n)).concat([doc(7, null)]);

/** A delivery index file as an earlier release wrote it: payloads as JSON text. */
function writeOldFormat(file: string): void {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(OLD_SCHEMA);
    const insert = db.prepare('INSERT INTO docs (env, folder, key, created_at, updated_at, owner, data) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const d of DOCS) insert.run(d.env, d.folder, d.key, d.created_at, d.updated_at, d.owner, d.data === null ? null : JSON.stringify(d.data));
    db.prepare('INSERT INTO checkpoints (consumer, position) VALUES (?, ?)').run('delivery', '00000000000000000042');
  } finally {
    db.close();
  }
}

/** How the file stores its payloads: the storage class of each non-null `data`, and the format version. */
function storage(file: string): { types: string[]; version: number } {
  const db = new Database(file, { readonly: true });
  try {
    const types = db.prepare<[], { t: string }>('SELECT DISTINCT typeof(data) AS t FROM docs WHERE data IS NOT NULL').all().map((r) => r.t);
    return { types, version: db.pragma('user_version', { simple: true }) as number };
  } finally {
    db.close();
  }
}

const views = (op: 'gte' | 'lt', value: number): DeliveryQuery => ({
  where: { kind: 'condition', field: { scope: 'data', path: ['views'] }, op, value },
  sort: [],
  limit: 10,
});

/** Every read of the index answers the same documents, whichever way the file was written. */
async function expectReads(index: SqliteSearchIndex): Promise<void> {
  expect(await index.get('e1', 'f1', 'k002')).to.deep.equal(doc(2));
  expect(await index.get('e1', 'f1', 'k007')).to.equal(null);
  expect((await index.list('e1', 'f1', { limit: 10 })).items).to.deep.equal(DOCS.slice(0, 6));
  expect((await index.list('e1', 'f1', { limit: 10, owners: ['someone'] })).items).to.deep.equal([doc(3)]);
  expect((await index.query('e1', 'f1', views('gte', 40))).items.map((d) => d.key)).to.deep.equal(['k004', 'k005', 'k006']);
  const nested: DeliveryQuery = { where: { kind: 'condition', field: { scope: 'data', path: ['nested', 'deep', 'x'] }, op: 'eq', value: 'é "q" \u2028 5' }, sort: [], limit: 10 };
  expect((await index.query('e1', 'f1', nested)).items).to.deep.equal([doc(5)]);
  const tagged: DeliveryQuery = { where: { kind: 'condition', field: { scope: 'data', path: ['tags'] }, op: 'includes', value: 't5' }, sort: [{ field: { scope: 'data', path: ['views'] }, descending: true }], limit: 10 };
  expect((await index.query('e1', 'f1', tagged)).items).to.deep.equal([doc(5)]);
  expect((await index.docsByKeys('e1', 'f1', ['k006', 'k001', 'k007'])).sort((a, b) => (a.key < b.key ? -1 : 1))).to.deep.equal([doc(1), doc(6)]);
}

describe('the delivery index stores payloads as SQLite JSONB (docs/decisions/0210)', () => {
  it('converts a file an earlier release wrote (JSON text) when it opens it, and reads the same documents', async () => {
    const file = `${tempDir()}/delivery.db`;
    writeOldFormat(file);
    expect(storage(file)).to.deep.equal({ types: ['text'], version: 0 });
    const index = new SqliteSearchIndex(file);
    try {
      expect(storage(file)).to.deep.equal({ types: ['blob'], version: DOCS_FORMAT });
      await expectReads(index);
      expect(await index.checkpoint('delivery')).to.equal('00000000000000000042');
    } finally {
      await index.close();
    }
    // Opening a converted file again changes nothing.
    const again = new SqliteSearchIndex(file);
    try {
      await expectReads(again);
    } finally {
      await again.close();
    }
  });

  it('writes JSONB, through the projection and through the rebuild bulk loader alike', async () => {
    const projected = `${tempDir()}/delivery.db`;
    const index = new SqliteSearchIndex(projected);
    try {
      await index.unitOfWork('delivery', '00000000000000000042', async (tx) => {
        for (const d of DOCS) await tx.index(d);
      });
      await expectReads(index);
    } finally {
      await index.close();
    }
    expect(storage(projected)).to.deep.equal({ types: ['blob'], version: DOCS_FORMAT });

    const loaded = `${tempDir()}/delivery.db`;
    await new SqliteSearchIndex(loaded).close();
    bulkLoadDelivery(loaded, DOCS, new Map([['delivery', '00000000000000000042']]));
    expect(storage(loaded)).to.deep.equal({ types: ['blob'], version: DOCS_FORMAT });
    const reopened = new SqliteSearchIndex(loaded);
    try {
      await expectReads(reopened);
    } finally {
      await reopened.close();
    }
  });
  it('reads a row in raw mode as the same object the driver makes of DOC_COLUMNS (docs/decisions/0300)', () => {
    const dir = tempDir();
    const db = new Database(`${dir}/raw.db`);
    try {
      db.exec(OLD_SCHEMA.split(';')[0]!);
      const insert = db.prepare('INSERT INTO docs (env, folder, key, created_at, updated_at, owner, data) VALUES (?, ?, ?, ?, ?, ?, jsonb(?))');
      for (const d of DOCS) insert.run(d.env, d.folder, d.key, d.created_at, d.updated_at, d.owner, d.data === null ? null : JSON.stringify(d.data));
      const sql = `SELECT ${DOC_COLUMNS} FROM docs ORDER BY rowid`;
      const objects = db.prepare(sql).all();
      const raw = (db.prepare(sql).raw(true).all() as RawDocRow[]).map(docRowOf);
      expect(raw).to.have.length(DOCS.length);
      expect(raw).to.deep.equal(objects);
      expect(raw.map((row) => Object.keys(row))).to.deep.equal(objects.map((row) => Object.keys(row as object)));
    } finally {
      db.close();
    }
  });
});
