// Full text restricted to one collection, two ways, on one file: `npx tsx infra/bench/text-scope-ab.ts
// [big] [small] [queries]`. A fresh file holds a big collection (`big` documents, default 100,000)
// and a small one (default 1,000) of the search scenario's documents (title and body, a row each);
// the two-word queries of the search scenario are asked of each collection with the collection
// found by joining every matching row to its document (before 0337) and by the collection's row id
// range, which FTS5 takes with the MATCH (0337). Prints the mean time of a search of each way.
import { SqliteSearchIndex } from '../sqlite/search-index.js';
import { openSqlite } from '../sqlite/open.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { searchDocument, searchQuery } from './search.js';

async function fill(index: SqliteSearchIndex, folder: string, count: number): Promise<void> {
  for (let at = 0; at < count; at += 1000) {
    await index.unitOfWork('bench', String(at).padStart(20, '0'), async (tx) => {
      for (let i = at; i < Math.min(count, at + 1000); i++) {
        const doc = searchDocument(i + (folder === 'small' ? 5_000_000 : 0));
        const key = `${folder}-${i}`;
        await tx.index({ env: 'e', folder, key, created_at: '2026-01-01', updated_at: '2026-01-01', owner: null, data: doc });
        await tx.indexSearch('e', folder, key, { texts: [{ field: 'title', locale: '', text: doc.title }, { field: 'body', locale: '', text: doc.body }], vectors: [] });
      }
    });
  }
}

async function main(): Promise<void> {
  const [big = 100_000, small = 1_000, queries = 300] = process.argv.slice(2).map(Number);
  const dir = mkdtempSync(join(tmpdir(), 'cms-text-scope-'));
  const file = join(dir, 'scope.db');
  const index = new SqliteSearchIndex(file);
  await fill(index, 'big', big);
  await fill(index, 'small', small);
  await index.close();
  const db = openSqlite(file);
  const joined = db.prepare(`SELECT d.key AS key, -SUM(s.score) AS score FROM (
      SELECT doc, rank AS score FROM search_text WHERE search_text MATCH ? AND field IN ('title', 'body')
    ) s JOIN docs d ON d.rowid = s.doc WHERE d.env = ? AND d.folder = ? AND d.data IS NOT NULL
    GROUP BY s.doc ORDER BY score DESC, d.key LIMIT 10`);
  const ranged = db.prepare(`SELECT d.key AS key, -SUM(s.score) AS score FROM (
      SELECT doc, rank AS score FROM search_text WHERE search_text MATCH ? AND rowid >= ? AND rowid < ? AND field IN ('title', 'body')
    ) s JOIN docs d ON d.rowid = s.doc WHERE d.env = ? AND d.folder = ? AND d.data IS NOT NULL
    GROUP BY s.doc ORDER BY score DESC, d.key LIMIT 10`);
  const scope = db.prepare<[string], number>('SELECT n FROM search_scopes WHERE scope = ?').pluck();
  const match = (i: number) => searchQuery(i).text.split(' ').map((w) => `"${w}"`).join(' OR ');
  for (const folder of ['small', 'big']) {
    const n = scope.get(`e/${folder}`)!;
    const from = BigInt(n) * 2n ** 36n;
    for (const [name, run] of [
      ['joined', (i: number) => joined.all(match(i), 'e', folder)],
      ['ranged', (i: number) => ranged.all(match(i), from, from + 2n ** 36n, 'e', folder)],
    ] as const) {
      for (let i = 0; i < 20; i++) run(i);
      const started = performance.now();
      for (let i = 0; i < queries; i++) run(i);
      console.log(`${folder} (${folder === 'big' ? big : small} documents) ${name}: ${((performance.now() - started) / queries).toFixed(2)} ms a search`);
    }
    const a = joined.all(match(1), 'e', folder);
    const b = ranged.all(match(1), from, from + 2n ** 36n, 'e', folder);
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`the two ways answer differently for ${folder}`);
  }
  db.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();
