import { expect } from 'chai';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { openSqlite } from '../../infra/sqlite/open.js';
import type { StoredDoc } from '../../projections/ports.js';
import { searchDoc } from '../support/search-fixtures.js';
import { tempDir } from '../support/temp.js';

// A search's page read by the row ids its hits carry (docs/decisions/0256): the same documents as by key, whatever the ids.
describe('SQLite search index: the page by row id', () => {
  let file: string;
  let index: SqliteSearchIndex;
  let position = 0;

  const put = (env: string, folder: string, key: string, text: string, data: Record<string, unknown> | null = { title: key }) =>
    index.unitOfWork('t', String(++position).padStart(20, '0'), async (tx) => {
      await tx.index({ ...searchDoc(env, key, data), folder });
      await tx.indexSearch(env, folder, key, { texts: [{ field: 'title', locale: '', text }], vectors: [] });
    });
  const rowidOf = (env: string, folder: string, key: string): number => {
    const db = openSqlite(file);
    try {
      return db.prepare<[string, string, string], number>('SELECT rowid FROM docs WHERE env = ? AND folder = ? AND key = ?').pluck().get(env, folder, key)!;
    } finally {
      db.close();
    }
  };
  const sorted = (docs: StoredDoc[]) => [...docs].sort((a, b) => (a.key < b.key ? -1 : 1));

  beforeEach(async () => {
    file = `${tempDir()}/search.db`;
    index = new SqliteSearchIndex(file);
    for (let i = 0; i < 6; i++) await put('e', 'f', `k${i}`, i % 2 === 0 ? 'fig fig tree' : 'fig olive');
    await put('e', 'other', 'k1', 'fig');
    await put('e', 'f', 'draft', 'fig', null);
  });
  afterEach(async () => index.close());

  it('gives each text hit its document row id', async () => {
    const query = { words: ['fig'], fields: ['title'], locale: null, limit: 10 };
    const hits = await index.searchText('e', 'f', query);
    expect(hits.map((h) => h.key)).to.have.members(['k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
    for (const hit of hits) expect(hit.rowid, hit.key).to.equal(rowidOf('e', 'f', hit.key));
  });

  it('reads the same documents by row id as by key', async () => {
    const hits = await index.searchText('e', 'f', { words: ['fig'], fields: ['title'], locale: null, limit: 4 });
    const keys = hits.map((h) => h.key);
    const byRow = await index.docsStoredByKeys('e', 'f', keys, hits.map((h) => h.rowid!));
    expect(byRow).to.have.length(4);
    expect(sorted(byRow)).to.deep.equal(sorted(await index.docsStoredByKeys('e', 'f', keys)));
  });

  it('falls back to the keys where a row id names another document, another collection, a draft or nothing', async () => {
    const keys = ['k0', 'k1', 'k2', 'k3', 'draft'];
    const rowids = [rowidOf('e', 'f', 'k2'), rowidOf('e', 'other', 'k1'), 999_999, rowidOf('e', 'f', 'draft'), rowidOf('e', 'f', 'draft')];
    const byRow = await index.docsStoredByKeys('e', 'f', keys, rowids);
    expect(sorted(byRow).map((d) => d.key)).to.deep.equal(['k0', 'k1', 'k2', 'k3']);
    expect(sorted(byRow)).to.deep.equal(sorted(await index.docsStoredByKeys('e', 'f', keys)));
    expect(byRow.every((d) => d.folder === 'f' && d.text === JSON.stringify({ title: d.key }))).to.equal(true);
  });
});
