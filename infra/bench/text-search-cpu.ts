// CPU time of full-text searches alone, without HTTP: `npx tsx infra/bench/text-search-cpu.ts
// <delivery.db> <env> <folder> [queries]` on a copy of a kept corpus's delivery index (it is
// opened for writing). The two-word queries of the search scenario (search.ts), answered by
// SqliteSearchIndex.searchText and then docsByKeys for the page of 10, as `_search` does; prints
// the CPU time per search of each step.
import { SqliteSearchIndex } from '../sqlite/search-index.js';
import { searchQuery } from './search.js';

async function main(): Promise<void> {
  const [file, env, folder, count] = process.argv.slice(2);
  if (!file || !env || !folder) throw new Error('usage: text-search-cpu.ts <delivery.db> <env> <folder> [queries]');
  const n = Number(count ?? 3000);
  const index = new SqliteSearchIndex(file);
  const fields = ['title', 'body'];
  const ask = (i: number, limit: number) => index.searchText(env, folder, { words: searchQuery(i).text.split(' '), fields, locale: null, limit });
  const loadStarted = process.cpuUsage();
  await ask(0, 11);
  const load = process.cpuUsage(loadStarted);
  console.log(`load: ${((load.user + load.system) / 1e3).toFixed(0)} ms CPU`);
  for (let round = 0; round < 3; round++) {
    let rank = 0;
    let docs = 0;
    for (let i = 0; i < n; i++) {
      const a = process.cpuUsage();
      const hits = await ask(i, 11);
      const b = process.cpuUsage(a);
      rank += b.user + b.system;
      const c = process.cpuUsage();
      await index.docsByKeys(env, folder, hits.slice(0, 11).map((h) => h.key));
      const d = process.cpuUsage(c);
      docs += d.user + d.system;
    }
    console.log(`round ${round}: text top k ${(rank / n).toFixed(1)} µs, docsByKeys ${(docs / n).toFixed(1)} µs a search (${n} searches)`);
  }
  await index.close();
  process.exit(0);
}

void main();
