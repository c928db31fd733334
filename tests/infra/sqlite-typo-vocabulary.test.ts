import { expect } from 'chai';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { searchDoc } from '../support/search-fixtures.js';
import { tempDir } from '../support/temp.js';

describe('typo tolerance: the vocabulary kept by each query thread until the file changes (docs/decisions/0376)', function () {
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
});
