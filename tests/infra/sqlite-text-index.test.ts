import { expect } from 'chai';
import { openSqlite, type SqliteDb } from '../../infra/sqlite/open.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { SqliteSearchTables } from '../../infra/sqlite/search-tables.js';
import { TextIndexKeeper } from '../../infra/sqlite/text-index-keeper.js';
import { TextMemoryIndex } from '../../infra/sqlite/text-memory-index.js';
import { topK } from '../../infra/sqlite/text-top-k.js';
import { Postings } from '../../infra/sqlite/text-postings.js';
import { memoryTextSearch } from '../../infra/sqlite/text-search.js';
import { Tokenizer } from '../../infra/sqlite/text-tokens.js';
import type { DeliveryDoc } from '../../projections/ports.js';
import type { Scored, SearchText, TextQuery } from '../../projections/search-ports.js';
import { tempDir } from '../support/temp.js';
import { seededRandom } from '../../infra/bench/seeded-random.js';

const random = seededRandom;

/** The tokens FTS5 itself makes of texts, read from a real table of search_text's tokenizer. */
function fts5Tokens(db: SqliteDb, texts: readonly string[]): string[][] {
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS t USING fts5(body, tokenize = 'unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE IF NOT EXISTS t_i USING fts5vocab(t, 'instance'); DELETE FROM t;");
  texts.forEach((text, i) => db.prepare('INSERT INTO t (rowid, body) VALUES (?, ?)').run(i, text));
  const out = texts.map((): { offset: number; term: string }[] => []);
  for (const row of db.prepare('SELECT term, doc, offset FROM t_i').all() as { term: string; doc: number; offset: number }[]) out[row.doc]!.push(row);
  return out.map((list) => list.sort((a, b) => a.offset - b.offset).map((t) => t.term));
}

const TRICKY = [
  'Héllo WORLD', 'naïve café crème brûlée', 'Straße STRASSE', 'ÆØÅ æøå Œuvre', 'İstanbul ıi', 'Ελληνικά ΆΈΉ', 'Привет, МИР ёЁ',
  '日本語のテキスト', '中文 测试，标点。', 'x²+y³=z¹', '3.14 1,000 0x1F 007', "don't stop-me now_please", 'tab\there\nnew\r\nline',
  'emoji 🙂ok👍🏽yes', 'ﬁne ligature', 'Ǆ ǅ ǆ', 'e\u0301 combining a\u0308', '١٢٣ arabic digits ٤٥', 'a_b-c.d/e\\f', '', '   ', 'ÀÉÎÕÜ àéîõü ñÑ çÇ',
  'ß ẞ', 'Ångström ℃ №5', 'full\u3000width　ＡＢＣ１２３', 'zero\u200bwidth', 'hebrew עִבְרִית', 'thai ภาษาไทย', 'korean 한국어 텍스트',
];

const randomAscii = (next: () => number): string =>
  Array.from({ length: 1 + Math.floor(next() * 60) }, () => String.fromCharCode(next() < 0.1 ? [9, 10, 13, 0][Math.floor(next() * 4)]! : 32 + Math.floor(next() * 95))).join('');

describe('in-memory text index beside FTS5 (docs/decisions/0200)', () => {
  describe('tokens', () => {
    it('are the tokens FTS5 makes, for plain ASCII (split here) and any other text (asked of FTS5)', () => {
      const db = openSqlite(`${tempDir()}/tokens.db`);
      try {
        const next = random(7);
        const texts = [...TRICKY, ...Array.from({ length: 300 }, () => randomAscii(next))];
        expect(new Tokenizer(db).tokenize(texts)).to.deep.equal(fts5Tokens(db, texts));
        expect(new Tokenizer(db).tokenize(['Héllo', 'ABC def'])).to.deep.equal([['hello'], ['abc', 'def']]);
        // The index splits ASCII rows itself as it reads them: the same lengths and frequencies.
        const ascii = texts.filter((t) => /^[\x00-\x7f]*$/.test(t));
        const index = new TextMemoryIndex();
        ascii.forEach((text, i) => index.put({ doc: i, scope: 's', key: `k${i}`, rows: [{ field: 'f', locale: '', ascii: text }] }));
        const want = fts5Tokens(db, ascii);
        expect(ascii.map((_, i) => index.rowLen[i])).to.deep.equal(want.map((t) => t.length));
        const counts = (tokens: string[]) => [...new Set(tokens)].map((t) => [t, tokens.filter((x) => x === t).length]);
        for (const [i, tokens] of want.entries()) {
          for (const [term, tf] of counts(tokens)) {
            const postings = index.terms.get(term as string)!;
            const at = postings.seek(0, i);
            expect([postings.slots[at], postings.tfs[at]], `${JSON.stringify(ascii[i])} ${term}`).to.deep.equal([i, tf]);
          }
        }
      } finally {
        db.close();
      }
    });
  });

  describe('answers', () => {
    const WORDS = [
      'apple', 'pie', 'red', 'green', 'tart', 'crust', 'sugar', 'café', 'naïve', 'über', 'straße', 'garden', 'river', 'stone', 'light', 'night',
      'market', 'bread', 'honey', 'winter', 'summer', 'colour', 'color', 'north', 'south', 'plate', 'table', 'chair', 'paper', 'water', 'fire',
      'Äpfel', 'ÉCOLE', 'x42', '2026',
    ];
    const ENVS = ['e1', 'e2'];
    const FOLDERS = ['f1', 'f2'];
    const FIELDS = ['title', 'body', 'summary'];
    const LOCALES = ['', 'en', 'de'];

    const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(list.length * next() ** 2)]!;
    const text = (next: () => number, n: number) => Array.from({ length: n }, () => pick(next, WORDS)).join(next() < 0.2 ? ', ' : ' ');
    const doc = (env: string, folder: string, key: string, data: Record<string, unknown> | null): DeliveryDoc => ({
      env, folder, key, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', owner: null, data,
    });
    const entries = (next: () => number): SearchText[] => {
      const texts: SearchText[] = [];
      for (const field of FIELDS) {
        if (next() < 0.3) continue;
        const locales = next() < 0.5 ? [''] : LOCALES.filter((l) => l !== '' && next() < 0.7);
        for (const locale of locales) texts.push({ field, locale, text: text(next, 1 + Math.floor(next() * (field === 'body' ? 40 : 6))) });
      }
      return texts;
    };

    function query(next: () => number): TextQuery {
      const words = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
        const word = pick(next, WORDS).toLowerCase();
        return next() < 0.2 && word.length > 4 ? word.slice(0, 2) + word.slice(3) : word;
      });
      const fields = FIELDS.filter(() => next() < 0.7);
      return {
        words,
        fields: fields.length > 0 ? fields : ['body'],
        locale: [null, 'en', 'de'][Math.floor(next() * 3)]!,
        limit: 1 + Math.floor(next() * 20),
        threshold: next() < 0.3 ? [0.6, 0.8, 1][Math.floor(next() * 3)] : undefined,
      };
    }

    function expectSame(got: Scored[], want: Scored[], what: string): void {
      expect(got.map((h) => h.key), what).to.deep.equal(want.map((h) => h.key));
      got.forEach((hit, i) => expect(Math.abs(hit.score - want[i]!.score), `${what} score ${i}`).to.be.at.most(1e-9 * Math.abs(want[i]!.score)));
    }

    // Both ways: searched on the caller's thread, and by the text search thread (docs/decisions/0305).
    for (const textThread of [false, true]) {
      const how = textThread ? ' (the text search thread)' : '';
      it(`are the FTS5 path's (same keys in the same order, scores within 1e-9) on a random corpus of collections, fields and locales, through writes, re-indexes and removals${how}`, async () => {
        const file = `${tempDir()}/delivery.db`;
        const index = new SqliteSearchIndex(file, false, { textThread });
        const fts5 = new SqliteSearchTables(openSqlite(file, { vectors: true }));
        const elsewhere = openSqlite(file, { vectors: true });
        const keeper = new TextIndexKeeper(elsewhere, file);
        const next = random(42);
        const keys = new Map<string, { env: string; folder: string }>();
        let position = 0;
        const write = (work: Parameters<SqliteSearchIndex['unitOfWork']>[2]) => index.unitOfWork('t', String(++position).padStart(20, '0'), work);
        let compared = 0;
        let fromMemory = 0;
        try {
          for (let round = 0; round < 6; round++) {
            await write(async (tx) => {
              for (let i = 0; i < 60; i++) {
                const env = ENVS[Math.floor(next() * 2)]!;
                const folder = FOLDERS[Math.floor(next() * 2)]!;
                const key = `k${Math.floor(next() * 150)}`;
                const known = keys.get(key) ?? { env, folder };
                keys.set(key, known);
                const action = next();
                if (action < 0.1) {
                  await tx.remove(known.env, known.folder, key);
                } else if (action < 0.17) {
                  await tx.index(doc(known.env, known.folder, key, null));
                } else {
                  await tx.index(doc(known.env, known.folder, key, { title: key }));
                  await tx.indexSearch(known.env, known.folder, key, { texts: entries(next), vectors: [] });
                }
              }
              if (round === 4) await tx.removeFolder('e2', 'f1');
            });
            for (let q = 0; q < 40; q++) {
              const env = ENVS[Math.floor(next() * 2)]!;
              const folder = FOLDERS[Math.floor(next() * 2)]!;
              const asked = query(next);
              const want = fts5.searchTextFts5(env, folder, asked);
              const what = `round ${round} ${JSON.stringify(asked)} in ${env}/${folder}`;
              expectSame(await index.searchText(env, folder, asked), want, what);
              const other = memoryTextSearch(keeper, env, folder, asked);
              if (other) {
                fromMemory += 1;
                expectSame(other, want, `${what} (another connection)`);
              }
              compared += want.length;
            }
          }
          expect(index.textThreadRunning, 'answered by the text search thread').to.equal(textThread);
        } finally {
          await index.close();
          elsewhere.close();
        }
        expect(compared, 'hits compared').to.be.greaterThan(500);
        expect(fromMemory, 'queries the in-memory index answered').to.equal(240);
      });

      it(`sees what another connection or process wrote to the same file (its generation), and leaves phrases to FTS5${how}`, async () => {
        const file = `${tempDir()}/delivery.db`;
        const reader = new SqliteSearchIndex(file, false, { textThread });
        const writer = new SqliteSearchIndex(file, false, { textThread });
        const put = (index: SqliteSearchIndex, key: string, words: string, position: string) =>
          index.unitOfWork('t', position, async (tx) => {
            await tx.index(doc('e', 'f', key, { title: key }));
            await tx.indexSearch('e', 'f', key, { texts: [{ field: 'title', locale: '', text: words }], vectors: [] });
          });
        const find = async (words: string[]) => (await reader.searchText('e', 'f', { words, fields: ['title'], locale: null, limit: 10 })).map((h) => h.key);
        try {
          await put(reader, 'a', 'plum jam', '00000000000000000001');
          expect(await find(['plum'])).to.deep.equal(['a']);
          await put(writer, 'b', 'plum plum cake', '00000000000000000002');
          expect(await find(['plum'])).to.deep.equal(['b', 'a']);
          await writer.unitOfWork('t', '00000000000000000003', async (tx) => tx.remove('e', 'f', 'a'));
          expect(await find(['plum'])).to.deep.equal(['b']);
          expect(await find(['jam'])).to.deep.equal([]);
          await put(reader, 'c', 'jam', '00000000000000000004');
          expect(await find(['jam', 'plum'])).to.deep.equal(['c', 'b']);
          const phrase = await reader.searchText('e', 'f', { phrase: ['plum', 'cake'], fields: ['title'], locale: null, limit: 10 });
          expect(phrase.map((h) => h.key)).to.deep.equal(['b']);
          expect(reader.textThreadRunning, 'answered by the text search thread').to.equal(textThread);
        } finally {
          await reader.close();
          await writer.close();
        }
      });
    }
  });

  describe('loading', () => {
    it('loads a big file in the background, FTS5 answering meanwhile, and takes what was written during the load', async () => {
      const file = `${tempDir()}/delivery.db`;
      const index = new SqliteSearchIndex(file);
      const reader = openSqlite(file, { vectors: true });
      const keeper = new TextIndexKeeper(reader, file, 0);
      let position = 0;
      const put = (key: string, words: string) =>
        index.unitOfWork('t', String(++position).padStart(20, '0'), async (tx) => {
          await tx.index({ env: 'e', folder: 'f', key, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', owner: null, data: { title: key } });
          await tx.indexSearch('e', 'f', key, { texts: [{ field: 'title', locale: '', text: words }], vectors: [] });
        });
      const query: TextQuery = { words: ['fig'], fields: ['title'], locale: null, limit: 100 };
      try {
        for (let i = 0; i < 50; i++) await put(`k${i}`, i % 3 === 0 ? 'fig tree fig' : 'olive tree');
        expect(memoryTextSearch(keeper, 'e', 'f', query), 'while loading').to.equal(null);
        await put('late', 'fig');
        let hits = memoryTextSearch(keeper, 'e', 'f', query);
        for (let tries = 0; hits === null && tries < 10; tries++) {
          await keeper.settled();
          hits = memoryTextSearch(keeper, 'e', 'f', query);
        }
        expect(hits).to.not.equal(null);
        expect(hits!.map((h) => h.key)).to.include('late');
        expect(hits).to.deep.equal(new SqliteSearchTables(reader).searchTextFts5('e', 'f', query));
      } finally {
        await index.close();
        reader.close();
      }
    });
  });

  describe('postings', () => {
    it('keep frequencies of any size (a byte each until one needs more) and seek the first slot at or after a given one', () => {
      const postings = new Postings(2);
      [[1, 3], [4, 300], [9, 70_000], [12, 1], [40, 2]].forEach(([slot, tf]) => postings.push(slot!, tf!));
      expect([...postings.tfs.subarray(0, postings.length)]).to.deep.equal([3, 300, 70_000, 1, 2]);
      expect([...postings.slots.subarray(0, postings.length)]).to.deep.equal([1, 4, 9, 12, 40]);
      expect([0, 1, 2, 5, 9, 13, 40, 41].map((slot) => postings.seek(0, slot))).to.deep.equal([0, 0, 1, 2, 2, 4, 4, 5]);
      expect(postings.seek(3, 2)).to.equal(3);
    });
  });

  describe('compaction', () => {
    it('drops removed rows and answers the same afterwards, with the counts BM25 reads unchanged', () => {
      const index = new TextMemoryIndex();
      const next = random(3);
      const words = ['ash', 'birch', 'cedar', 'elm', 'fir', 'oak', 'pine', 'yew'];
      const tokens = (n: number) => Array.from({ length: n }, () => words[Math.floor(words.length * next() ** 2)]!);
      const current = new Map<number, string[][]>();
      for (let i = 0; i < 12_000; i++) {
        const doc = Math.floor(next() * 1_000);
        const rows = [tokens(3), tokens(20)];
        index.put({ doc, scope: 's', key: `k${String(doc).padStart(4, '0')}`, rows: rows.map((t, r) => ({ field: r === 0 ? 'title' : 'body', locale: '', tokens: t })) }, current.get(doc));
        current.set(doc, rows);
      }
      const ask = () => topK(index, { terms: ['oak', 'yew', 'ash'], scope: 's', fields: ['title', 'body'], locale: null, limit: 15 });
      const before = ask();
      const counts = { rows: index.rows, tokens: index.tokens, oak: index.terms.get('oak')!.df };
      expect(index.wantsCompaction).to.equal(true);
      index.compact();
      expect(index.wantsCompaction).to.equal(false);
      expect(index.slots).to.equal(index.rows);
      expect({ rows: index.rows, tokens: index.tokens, oak: index.terms.get('oak')!.df }).to.deep.equal(counts);
      expect(counts.rows).to.equal(2 * current.size);
      expect(ask()).to.deep.equal(before);
      expect(before).to.have.length(15);
    });
  });
});
