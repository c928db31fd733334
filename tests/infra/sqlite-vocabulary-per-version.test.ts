import { expect } from 'chai';
import { Database } from '../../infra/sqlite/driver.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { SqliteSearchTables } from '../../infra/sqlite/search-tables.js';
import { searchDoc } from '../support/search-fixtures.js';
import { tempDir } from '../support/temp.js';

describe('the vocabulary and the terms\' row counts kept by each query thread until the file changes (docs/decisions/0376)', function () {
  this.timeout(30_000);

  it('finds a term written after the vocabulary was read, on every thread', async () => {
    const index = new SqliteSearchIndex(`${tempDir()}/search.db`);
    const write = (position: string, key: string, title: string) =>
      index.unitOfWork('t', position, async (tx) => {
        await tx.index(searchDoc('e1', key));
        await tx.indexSearch('e1', 'f', key, { texts: [{ field: 'title', locale: '', text: title }], vectors: [] });
      });
    const keys = async () => (await index.searchText('e1', 'f', { words: ['cedrr'], fields: ['title'], locale: null, threshold: 0.6, limit: 10 })).map((hit) => hit.key).sort();
    try {
      await write('00000000000000000001', 'a', 'cedar grove');
      // More documents, so that the search is cut into parts (one per thread) from the first.
      for (const key of ['b', 'd', 'e', 'f']) await write('00000000000000000002', key, 'birch cedar');
      // Several searches, so that every thread of the pool has read the vocabulary of 'c'.
      for (let i = 0; i < 6; i++) expect(await keys()).to.deep.equal(['a', 'b', 'd', 'e', 'f']);
      await write('00000000000000000003', 'c', 'cedor');
      for (let i = 0; i < 6; i++) expect(await keys()).to.deep.equal(['a', 'b', 'c', 'd', 'e', 'f']);
      await index.unitOfWork('t', '00000000000000000004', async (tx) => tx.remove('e1', 'f', 'a'));
      for (let i = 0; i < 6; i++) expect(await keys()).to.deep.equal(['b', 'c', 'd', 'e', 'f']);
    } finally {
      await index.close();
    }
  });

  it('scores with the terms\' row counts of the file as it is: the common word made rare by later writes', async () => {
    const file = `${tempDir()}/search.db`;
    const index = new SqliteSearchIndex(file);
    const write = (position: string, title: (i: number) => string) =>
      index.unitOfWork('t', position, async (tx) => {
        for (let i = 0; i < 400; i++) {
          const key = `k${String(i).padStart(3, '0')}`;
          await tx.index(searchDoc('e1', key));
          await tx.indexSearch('e1', 'f', key, { texts: [{ field: 'title', locale: '', text: title(i) }], vectors: [] });
        }
      });
    const query = { words: ['amber', 'fjord'], fields: ['title'], locale: null, limit: 5 };
    const fresh = () => {
      const db = new Database(file, { readonly: true });
      db.function('budget_left', () => 1);
      try {
        return new SqliteSearchTables(db).searchText('e1', 'f', 'e1/f', query);
      } finally {
        db.close();
      }
    };
    try {
      // 'amber' common, 'fjord' rare: fjord's documents are scored first.
      await write('00000000000000000001', (i) => (i % 5 === 0 ? `fjord ${i % 3 === 0 ? 'fjord' : 'cedar'}` : 'amber birch'));
      for (let i = 0; i < 4; i++) expect(await index.searchText('e1', 'f', query)).to.deep.equal(fresh());
      // Now 'fjord' is the common word and 'amber' the rare one, in a few documents at the top of the answer.
      await write('00000000000000000002', (i) => (i % 50 === 1 ? 'amber amber' : 'fjord grove'));
      const hits = fresh();
      expect(hits.map((hit) => hit.key).slice(0, 5)).to.have.members(['k001', 'k051', 'k101', 'k151', 'k201']);
      for (let i = 0; i < 4; i++) expect(await index.searchText('e1', 'f', query)).to.deep.equal(hits);
    } finally {
      await index.close();
    }
  });
});
