import { expect } from 'chai';
import { Database } from '../../infra/sqlite/driver.js';
import { candidatesTextSql, commonTerms, rankedTextSql, termBound } from '../../infra/sqlite/ranked-text.js';
import { BUDGET_EXCEEDED } from '../../infra/sqlite/query-budget.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { SCOPE_ROWS } from '../../infra/sqlite/search-tables.js';
import { searchDoc } from '../support/search-fixtures.js';
import { tempDir } from '../support/temp.js';

/** A repeatable sequence of numbers in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** The rare words: the named ones, the queries' own, and 190 others. */
const RARE = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heath', 'inlet', 'jetty', ...Array.from({ length: 190 }, (_, i) => `w${i}`)];

/** A text of that many words: 'common' in nearly every text, 'often' in many, each rare word in a few. */
function text(next: () => number, words: number): string {
  return Array.from({ length: words }, () => {
    const r = next();
    return r < 0.3 ? 'common' : r < 0.4 ? 'often' : RARE[Math.floor(next() * RARE.length)]!;
  }).join(' ');
}

describe('full text: the documents of rare terms scored first when the others are common (docs/decisions/0378)', function () {
  this.timeout(60_000);

  it('bounds what a term adds to a row: no row of an FTS5 table scores more for it than termBound', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')");
    const next = seededRandom(7);
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    for (let i = 0; i < 400; i++) insert.run(i % 7 === 0 ? 'common common common common' : text(next, 1 + Math.floor(next() * 30)));
    const total = (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
    for (const term of ['common', 'often', 'amber', 'jetty']) {
      const rows = (db.prepare('SELECT count(*) AS n FROM t WHERE t MATCH ?').get(term) as { n: number }).n;
      const best = (db.prepare('SELECT max(-rank) AS best FROM t WHERE t MATCH ?').get(term) as { best: number }).best;
      expect(best, term).to.be.above(0);
      expect(best, term).to.be.below(termBound(rows, total));
    }
  });

  it('splits off the most frequent terms while a document holding them alone scores less than a row of the rarest can', () => {
    expect(commonTerms([{ term: 'a', rows: 900 }], 1000, 2)).to.equal(null);
    const split = commonTerms([{ term: 'the', rows: 900 }, { term: 'fjord', rows: 10 }, { term: 'of', rows: 800 }], 1000, 2);
    expect(split?.rare).to.deep.equal(['fjord']);
    expect(split!.bound).to.be.closeTo(2 * (termBound(900, 1000) + termBound(800, 1000)), 1e-9);
    // Two terms as frequent as each other: no split.
    expect(commonTerms([{ term: 'x', rows: 300 }, { term: 'y', rows: 250 }], 1000, 2)).to.equal(null);
    // The common terms' rows do not outnumber the rare ones' twice: no split.
    expect(commonTerms([{ term: 'x', rows: 500 }, { term: 'z', rows: 300 }], 1000, 2)).to.equal(null);
  });

  it('answers what scoring every matching row answers, keys and scores, for every limit and field', async () => {
    const file = `${tempDir()}/search.db`;
    const index = new SqliteSearchIndex(file);
    const next = seededRandom(11);
    try {
      await index.unitOfWork('t', '00000000000000000001', async (tx) => {
        for (let i = 0; i < 600; i++) {
          const key = `d${String(i).padStart(3, '0')}`;
          await tx.index(searchDoc('e1', key));
          const texts = [{ field: 'title', locale: '', text: text(next, 4) }, { field: 'body', locale: '', text: text(next, 20) }];
          if (i % 5 === 0) texts.push({ field: 'body', locale: 'de', text: text(next, 10) });
          await tx.indexSearch('e1', 'f', key, { texts, vectors: [] });
        }
        // Unpublished: never found, and given no search rows (only the page is joined to its documents).
        await tx.index(searchDoc('e1', 'hidden', null));
        await tx.indexSearch('e1', 'f', 'hidden', { texts: [{ field: 'title', locale: '', text: 'common amber' }], vectors: [] });
        await tx.index(searchDoc('e1', 'flip'));
        await tx.index(searchDoc('e1', 'flip', null));
        await tx.indexSearch('e1', 'f', 'flip', { texts: [{ field: 'title', locale: '', text: 'common amber amber' }], vectors: [] });
      });
      const db = new Database(file, { readonly: true });
      db.function('budget_left', () => 1);
      try {
        const rowsOf = (term: string) => (db.prepare('SELECT count(*) AS n FROM search_text WHERE search_text MATCH ?').get(term) as { n: number }).n;
        const total = (db.prepare('SELECT count(*) AS n FROM doc_texts').get() as { n: number }).n;
        expect(db.prepare('SELECT count(*) AS n FROM doc_texts t JOIN docs d ON d.rowid = t.doc WHERE d.data IS NULL').get()).to.deep.equal({ n: 0 });
        expect((db.prepare('SELECT rows_per_doc AS r FROM search_scopes').get() as { r: number }).r).to.equal(3);
        // The split is taken for these queries (and answered from the candidates or, past the bound, by every row).
        const split = commonTerms(['common', 'amber'].map((term) => ({ term, rows: rowsOf(term) })), total, 3);
        expect(split?.rare).to.deep.equal(['amber']);
        expect(commonTerms(['common', 'often', 'fjord', 'jetty'].map((term) => ({ term, rows: rowsOf(term) })), total, 3)?.rare).to.have.members(['fjord', 'jetty']);
        const everyRow = (words: string[], fields: string[], locale: string | null, limit: number) => {
          const match = words.map((w) => `"${w}"`).join(' OR ');
          const params = [match, SCOPE_ROWS, 2 * SCOPE_ROWS, ...(locale === null ? [] : [locale]), ...fields, 'e1', 'f'];
          return db.prepare(rankedTextSql(locale !== null, fields.length, limit)).all(...params) as { key: string; score: number }[];
        };
        // The candidates' page is the answer here: its last document scores above what a document holding 'common' alone can.
        expect(everyRow(['common', 'amber'], ['title', 'body'], null, 10)[9]!.score).to.be.above(split!.bound);
        for (const words of [['common', 'amber'], ['amber', 'common', 'often'], ['common', 'often', 'fjord', 'jetty'], ['often', 'grove']]) {
          for (const [fields, locale] of [[['title', 'body'], null], [['body'], 'de'], [['title'], 'en']] as const) {
            for (const limit of [1, 3, 10, 40, 200]) {
              const hits = await index.searchText('e1', 'f', { words, fields: [...fields], locale, limit });
              const expected = everyRow(words, [...fields], locale, limit);
              const label = `${words.join(' ')} in ${fields.join(',')} (${String(locale)}), limit ${limit}`;
              expect(hits.map((h) => [h.key, h.score]), label).to.deep.equal(expected.map((h) => [h.key, h.score]));
              expect(hits.length, label).to.be.above(0);
            }
          }
        }
        // Past the time budget both statements end (the budget is asked at one row in 64 by row id).
        const late = new Database(file, { readonly: true });
        late.function('budget_left', { deterministic: false }, () => {
          throw new Error(BUDGET_EXCEEDED);
        });
        try {
          const rows = [SCOPE_ROWS, 2 * SCOPE_ROWS, 'title', 'body'];
          expect(() => late.prepare(rankedTextSql(false, 2, 10)).all('"often"', ...rows, 'e1', 'f')).to.throw(BUDGET_EXCEEDED);
          expect(() => late.prepare(candidatesTextSql(false, 2, 10)).all('"amber"', ...rows, '"amber" OR "common"', ...rows, 'e1', 'f')).to.throw(BUDGET_EXCEEDED);
        } finally {
          late.close();
        }
      } finally {
        db.close();
      }
    } finally {
      await index.close();
    }
  });
});
