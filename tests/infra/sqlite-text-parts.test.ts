import { expect } from 'chai';
import { Database } from '../../infra/sqlite/driver.js';
import { mergedPage } from '../../infra/sqlite/ranked-text.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { SCOPE_ROWS, SqliteSearchTables } from '../../infra/sqlite/search-tables.js';
import { searchDoc } from '../support/search-fixtures.js';
import { tempDir } from '../support/temp.js';

const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heath'];

/** A text of `n` words picked by `i`: every document shares some words with many others. */
const text = (i: number, n: number): string => Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 3 + (i % 5) * k) % WORDS.length]).join(' ');

describe('full text over parts of a collection, one thread each (docs/decisions/0376)', function () {
  this.timeout(60_000);

  it('merges the parts\' pages: best first, then by key in SQLite\'s order, a document once at its best, at most the limit', () => {
    const page = mergedPage(
      [
        [{ key: 'b', score: 2 }, { key: 'dup', score: 1 }],
        [{ key: 'a', score: 2 }, { key: 'dup', score: 3 }, { key: '\u{1F600}', score: 0.5 }, { key: '\uFF5E', score: 0.5 }],
      ],
      5,
    );
    // U+FF5E sorts before U+1F600 by code point (UTF-8 bytes), after it by UTF-16 code units.
    expect(page).to.deep.equal([{ key: 'dup', score: 3 }, { key: 'a', score: 2 }, { key: 'b', score: 2 }, { key: '\uFF5E', score: 0.5 }, { key: '\u{1F600}', score: 0.5 }]);
    expect(mergedPage([[{ key: 'a', score: 1 }], [{ key: 'b', score: 2 }]], 1)).to.deep.equal([{ key: 'b', score: 2 }]);
  });

  it('cuts at documents\' edges, covers the collection\'s range, and answers what the whole collection answers', async () => {
    const file = `${tempDir()}/search.db`;
    const index = new SqliteSearchIndex(file);
    try {
      for (const round of [0, 1]) {
        await index.unitOfWork('t', `0000000000000000000${round + 1}`, async (tx) => {
          for (let i = 0; i < 300; i++) {
            // The second round writes every third document again (its rows move to the collection's end) and one other collection.
            if (round === 1 && i % 3 !== 0) continue;
            const key = `d${String(i).padStart(3, '0')}`;
            await tx.index(searchDoc('e1', key));
            const texts = [{ field: 'title', locale: '', text: text(i + round, 3) }, { field: 'body', locale: '', text: text(i * 11 + round, 12) }];
            if (i % 4 === 0) texts.push({ field: 'body', locale: 'de', text: text(i + 1, 6) });
            await tx.indexSearch('e1', 'f', key, { texts, vectors: [] });
            await tx.index(searchDoc('e2', key));
            await tx.indexSearch('e2', 'f', key, { texts: [{ field: 'title', locale: '', text: text(i, 4) }], vectors: [] });
          }
        });
      }
      const db = new Database(file, { readonly: true });
      db.function('budget_left', () => 1);
      try {
        const tables = new SqliteSearchTables(db);
        const n = (db.prepare("SELECT n FROM search_scopes WHERE scope = 'e1/f'").get() as { n: number }).n;
        const rows = db.prepare('SELECT rowid, doc FROM search_text WHERE rowid >= ? AND rowid < ? ORDER BY rowid').all(BigInt(n * SCOPE_ROWS), BigInt((n + 1) * SCOPE_ROWS)) as { rowid: number; doc: number }[];
        for (const count of [1, 2, 3, 7]) {
          const parts = tables.textParts('e1/f', count);
          expect(parts.length, `${count} parts`).to.be.within(1, count);
          expect(parts[0]![0]).to.equal(n * SCOPE_ROWS);
          expect(parts[parts.length - 1]![1]).to.equal((n + 1) * SCOPE_ROWS);
          for (let k = 1; k < parts.length; k++) expect(parts[k]![0]).to.equal(parts[k - 1]![1]);
          // Every document's rows in one part.
          const partOf = new Map<number, number>();
          for (const row of rows) {
            const part = parts.findIndex(([from, to]) => row.rowid >= from && row.rowid < to);
            expect(partOf.get(row.doc) ?? part, `document ${row.doc}`).to.equal(part);
            partOf.set(row.doc, part);
          }
          if (count > 1) expect(new Set(partOf.values()).size, `${count} parts used`).to.be.above(1);
          for (const words of [['amber', 'birch'], ['cedar'], ['fjord', 'grove', 'heath', 'amber']]) {
            for (const [fields, locale] of [[['title', 'body'], null], [['body'], 'de']] as const) {
              for (const limit of [1, 5, 40]) {
                const query = { words, fields: [...fields], locale, limit };
                const whole = tables.searchText('e1', 'f', 'e1/f', query);
                const merged = mergedPage(parts.map((part) => tables.searchText('e1', 'f', 'e1/f', query, part)), limit);
                expect(merged, `${words.join(' ')} in ${count} parts, limit ${limit}`).to.deep.equal(whole);
                expect(whole.length).to.be.above(0);
              }
            }
          }
        }
        // The index's own search (cut into its pool's parts) answers the same.
        const query = { words: ['amber', 'delta'], fields: ['title', 'body'], locale: null, limit: 20 };
        expect(await index.searchText('e1', 'f', query)).to.deep.equal(tables.searchText('e1', 'f', 'e1/f', query));
        expect(tables.textParts('e9/none', 2)).to.deep.equal([]);
        expect(await index.searchText('e9', 'none', query)).to.deep.equal([]);
      } finally {
        db.close();
      }
    } finally {
      await index.close();
    }
  });
});
