import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { SqliteSearchTables } from '../../infra/sqlite/search-tables.js';
import { openSqlite } from '../../infra/sqlite/open.js';
import { DataVersionLook } from '../../infra/sqlite/data-version-look.js';
import { SYNC_LOAD_ROWS, TextIndexKeeper } from '../../infra/sqlite/text-index-keeper.js';
import { memoryTextSearch } from '../../infra/sqlite/text-search.js';
import type { TextQuery } from '../../projections/search-ports.js';
import { tempDir } from '../support/temp.js';

const doc = (key: string) => ({ env: 'e', folder: 'f', key, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', owner: null, data: { title: key } });
const words = (...w: string[]): TextQuery => ({ words: w, fields: ['title'], locale: null, limit: 100 });

/** An index on a new file, with writes numbered in order. */
function fixture(options: { textThread?: boolean; textThreadModule?: string } = { textThread: true }) {
  const file = `${tempDir()}/delivery.db`;
  const index = new SqliteSearchIndex(file, false, options);
  let position = 0;
  const write = (work: Parameters<SqliteSearchIndex['unitOfWork']>[2]) => index.unitOfWork('t', String(++position).padStart(20, '0'), work);
  const put = (key: string, text: string) =>
    write(async (tx) => {
      await tx.index(doc(key));
      await tx.indexSearch('e', 'f', key, { texts: [{ field: 'title', locale: '', text }], vectors: [] });
    });
  const keys = async (query: TextQuery) => (await index.searchText('e', 'f', query)).map((h) => h.key);
  return { file, index, write, put, keys };
}

describe('the text search thread (docs/decisions/0305)', () => {
  it('answers a search sent right after a write with that write, every time, without reloading its copy', async () => {
    const { index, write, put, keys } = fixture();
    try {
      await put('seed', 'walnut bread');
      expect(await keys(words('walnut'))).to.deep.equal(['seed']);
      expect(index.textThreadRunning).to.equal(true);
      for (let i = 0; i < 60; i++) {
        await put(`k${i}`, `walnut w${i}`);
        expect(await keys(words(`w${i}`)), `after write ${i}`).to.deep.equal([`k${i}`]);
        if (i % 3 === 0) {
          await write(async (tx) => tx.remove('e', 'f', `k${i}`));
          expect(await keys(words(`w${i}`)), `after removal ${i}`).to.deep.equal([]);
        }
        if (i % 5 === 0) {
          // Re-indexed with other words: the old ones are gone from the thread's copy.
          await put(`k${i}`, `chestnut v${i}`);
          expect(await keys(words(`w${i}`, `v${i}`)), `after re-index ${i}`).to.deep.equal([`k${i}`]);
          expect(await keys(words(`w${i}`)), `old words after re-index ${i}`).to.deep.equal([]);
        }
      }
      expect(await index.textThreadLoads(), 'loads of the thread\'s copy').to.equal(1);
    } finally {
      await index.close();
    }
  });

  it('answers as FTS5 does while writes and searches overlap (searches sent before a commit, answered after it)', async () => {
    const { file, index, put } = fixture();
    const fts5 = new SqliteSearchTables(openSqlite(file, { vectors: true }));
    try {
      await put('first', 'acorn');
      await index.searchText('e', 'f', words('acorn'));
      for (let round = 0; round < 20; round++) {
        const searches = Array.from({ length: 5 }, () => index.searchText('e', 'f', words('acorn', 'oak')));
        await Promise.all([put(`r${round}`, round % 2 ? 'oak acorn' : 'oak'), ...searches]);
        const after = await index.searchText('e', 'f', words('acorn', 'oak'));
        expect(after.map((h) => h.key), `round ${round}`).to.deep.equal(fts5.searchTextFts5('e', 'f', words('acorn', 'oak')).map((h) => h.key));
        expect(after.map((h) => h.key)).to.include(`r${round}`);
      }
      // The commits the searches overlapped were this process's own: the copy took them, never dropped.
      expect(await index.textThreadLoads(), 'loads of the thread\'s copy').to.equal(1);
      // A phrase goes to the thread too, which asks FTS5.
      expect(await index.searchText('e', 'f', { phrase: ['oak', 'acorn'], fields: ['title'], locale: null, limit: 100 })).to.have.length(10);
    } finally {
      await index.close();
    }
  });

  it('matches each answer to its search with many in flight, each posted at once between commits (docs/decisions/0309)', async () => {
    const { index, put, keys } = fixture();
    try {
      await put('seed', 'maple');
      await keys(words('maple'));
      // Every search is posted as it is asked, one message each, and answered as it is done: each
      // asks for its own word, written just before it, while later writes commit around it.
      const searches: Promise<string[]>[] = [];
      for (let i = 0; i < 40; i++) {
        await put(`m${i}`, `maple u${i}`);
        searches.push(keys(words(`u${i}`)));
        if (i % 4 === 0) searches.push(...Array.from({ length: 5 }, () => keys(words(`u${i}`))));
      }
      const answers = await Promise.all(searches);
      let at = 0;
      for (let i = 0; i < 40; i++) {
        for (let n = i % 4 === 0 ? 6 : 1; n > 0; n--) expect(answers[at++], `search for u${i}`).to.deep.equal([`m${i}`]);
      }
      expect(await keys(words('maple'))).to.have.length(41);
      expect(await index.textThreadLoads(), 'loads of the thread\'s copy').to.equal(1);
    } finally {
      await index.close();
    }
  });

  it('keeps its copy through a commit of its own process whose changes are on their way, and drops it for anyone else\'s', async () => {
    // The thread's keeper, driven by hand: the writer is another index on the file, and what the
    // thread would learn from its process's writer (the generation being committed) is set here.
    const { file, index, put } = fixture({ textThread: false });
    const db = openSqlite(file);
    let committing = 0;
    let taken = 0;
    const keeper = new TextIndexKeeper(db, file, SYNC_LOAD_ROWS, new DataVersionLook(db), { takePosted: () => void (taken += 1), committing: () => committing });
    const find = (word: string) => memoryTextSearch(keeper, 'e', 'f', words(word))?.map((h) => h.key);
    try {
      await put('a', 'almond');
      expect(find('almond')).to.deep.equal(['a']);
      const generation = () => db.prepare<[], number>('SELECT value FROM search_generation WHERE id = 0').pluck().get()!;
      // Its own writer committing the next generation: the changes are coming, the copy stays (the search answers the state before).
      await put('b', 'almond almond');
      committing = generation();
      expect(find('almond')).to.deep.equal(['a']);
      expect(taken, 'posted changes taken before keeping the copy').to.be.greaterThan(0);
      expect(keeper.loads).to.equal(1);
      // The writer's generation is not the stored one: another connection wrote, the copy is loaded again.
      await put('c', 'almond');
      expect(find('almond')).to.deep.equal(['b', 'a', 'c']);
      expect(keeper.loads).to.equal(2);
    } finally {
      db.close();
      await index.close();
    }
  });

  /** The process warnings `work` emitted, joined by lines (the fallback warns once). */
  async function warningsOf(work: () => Promise<void>): Promise<string> {
    const warnings: string[] = [];
    const emitWarning = process.emitWarning;
    process.emitWarning = (warning: string | Error) => void warnings.push(String(warning));
    try {
      await work();
    } finally {
      process.emitWarning = emitWarning;
    }
    return warnings.join('\n');
  }

  it('falls back to the main thread when the thread cannot start', async () => {
    const { index, put, keys } = fixture({ textThread: true, textThreadModule: 'missing-text-search-thread' });
    try {
      const warnings = await warningsOf(async () => {
        await put('a', 'hazel nut');
        expect(await keys(words('hazel'))).to.deep.equal(['a']);
        await put('b', 'hazel hazel');
        expect(await keys(words('hazel'))).to.deep.equal(['b', 'a']);
        expect(index.textThreadRunning).to.equal(false);
      });
      expect(warnings).to.match(/text search thread failed/);
    } finally {
      await index.close();
    }
  });

  it('falls back to the main thread when the thread dies, the searches it held included', async () => {
    const { index, put, keys } = fixture({ textThread: true, textThreadModule: '../../tests/support/workers/dying-text-thread' });
    try {
      const warnings = await warningsOf(async () => {
        await put('a', 'pecan pie');
        const held = await Promise.all([keys(words('pecan')), keys(words('pie', 'pecan'))]);
        expect(held).to.deep.equal([['a'], ['a']]);
        await put('b', 'pecan');
        expect(await keys(words('pecan'))).to.deep.equal(['b', 'a']);
        expect(index.textThreadRunning).to.equal(false);
      });
      expect(warnings).to.match(/text search thread failed.*ended \(code 3\)/);
    } finally {
      await index.close();
    }
  });

  for (const close of ['close', 'leave open']) {
    it(`lets its process end by itself (${close === 'close' ? 'the index closed' : 'the index left open'})`, () => {
      const dir = tempDir();
      const child = spawnSync(process.execPath, ['--import', 'tsx', 'tests/support/text-thread-exit.ts', `${dir}/delivery.db`, close], { encoding: 'utf8', timeout: 30_000 });
      expect(child.status, child.stderr).to.equal(0);
      expect(JSON.parse(child.stdout.trim())).to.deep.equal({ keys: ['a'], thread: true });
    });
  }
});
