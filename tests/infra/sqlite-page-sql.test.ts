import { expect } from 'chai';
import { limitSql, pageSql } from '../../infra/sqlite/delivery-query-sql.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { rankedTextSql } from '../../infra/sqlite/ranked-text.js';
import type { DeliveryQuery } from '../../projections/delivery-query.js';
import type { DeliveryDoc } from '../../projections/ports.js';
import { tempDir } from '../support/temp.js';
import { numberedDoc, searchDoc } from '../support/search-fixtures.js';

const BY_CREATION = [{ field: { scope: 'sys' as const, name: 'created_at' as const }, descending: false }];

const doc = (n: number): DeliveryDoc => numberedDoc(n, { n, even: n % 2 === 0 });

describe("a page statement's LIMIT (docs/decisions/0319)", () => {
  it('is written into the SQL, not bound: SQLite would prepare the statement again at each run', () => {
    const where = { kind: 'condition' as const, field: { scope: 'data' as const, path: ['n'] }, op: 'gte' as const, value: 3 };
    for (const filterIndexed of [false, true]) {
      const { sql, params } = pageSql({ env: 'e1', folder: 'f1', where, sort: BY_CREATION, cursor: { values: ['0'], key: 'x' }, backward: false, limit: 20, filterIndexed });
      expect(sql).to.match(/ LIMIT 21$/);
      expect(params).to.not.include(21);
      expect(params).to.include(3);
    }
  });

  it('refuses a page size that is not a positive integer', () => {
    for (const rows of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) expect(() => limitSql(rows), String(rows)).to.throw(/invalid page size/);
    expect(limitSql(101)).to.equal('101');
  });

  it('gives each page size its own statement: pages of the same query with other limits answer their own rows', async () => {
    const index = new SqliteSearchIndex(`${tempDir()}/search.db`);
    try {
      await index.unitOfWork('delivery', '00000000000000000001', async (tx) => {
        for (let n = 1; n <= 9; n++) await tx.index(doc(n));
      });
      const query = (limit: number, key: string): DeliveryQuery => ({ limit, where: { kind: 'condition', field: { scope: 'data', path: ['even'] }, op: 'eq', value: true }, after: { values: ['0'], key } });
      for (const [limit, keys, hasMore] of [
        [1, ['k002'], true],
        [3, ['k002', 'k004', 'k006'], true],
        [1, ['k002'], true],
        [4, ['k002', 'k004', 'k006', 'k008'], false],
        [2, ['k002', 'k004'], true],
      ] as const) {
        for (const key of ['a', 'b']) {
          const page = await index.queryStored!('e1', 'f1', query(limit, key));
          expect(page.items.map((d) => d.key), `limit ${limit}`).to.deep.equal(keys);
          expect(page.hasMore, `limit ${limit}`).to.equal(hasMore);
        }
      }
    } finally {
      await index.close();
    }
  });
});

describe("an FTS5 ranked search's LIMIT (docs/decisions/0319)", () => {
  it('is written into the SQL, not bound', () => {
    const sql = rankedTextSql(true, 2, 11);
    expect(sql).to.match(/ LIMIT 11$/);
    // MATCH, the collection's row id range (two), the locale, two fields, the environment and the collection: eight parameters, none of them the limit.
    expect(sql.split('?').length - 1).to.equal(8);
    expect(rankedTextSql(false, 1, 3).split('?').length - 1).to.equal(6);
  });

  it('answers phrase searches with limits that change from one search to the next, each with its own rows', async () => {
    const index = new SqliteSearchIndex(`${tempDir()}/search.db`);
    try {
      await index.unitOfWork('t', '00000000000000000001', async (tx) => {
        for (const [key, text] of [['a', 'apple pie'], ['b', 'apple pie and apple pie'], ['c', 'apple pie, apple pie, apple pie'], ['d', 'pie apple']]) {
          await tx.index(searchDoc('e1', key!));
          await tx.indexSearch('e1', 'f', key!, { texts: [{ field: 'title', locale: '', text: text! }], vectors: [] });
        }
      });
      const phrase = (limit: number) => index.searchText('e1', 'f', { phrase: ['apple', 'pie'], fields: ['title'], locale: null, limit }).then((hits) => hits.map((h) => h.key));
      const all = await phrase(10);
      expect(all).to.have.members(['a', 'b', 'c']);
      for (const limit of [1, 2, 1, 3, 2]) expect(await phrase(limit), `limit ${limit}`).to.deep.equal(all.slice(0, limit));
      expect(await phrase(0)).to.deep.equal([]);
    } finally {
      await index.close();
    }
  });
});
