// CPU time of full-text searches alone, without HTTP: `npx tsx infra/bench/text-search-cpu.ts
// <delivery.db> <env> <folder> [queries]` on a copy of a kept corpus's delivery index (it is
// opened for writing). The two-word queries of the search scenario (search.ts), answered by
// SqliteSearchIndex.searchText and then the page of 10 (and the 11th), read as the general path
// does (docsByKeys, parsed, then serialized) and as the stored-text path does (docsStoredByKeys
// spliced, 0260; by key and by the search's row ids, 0256); prints the CPU time per search of each step.
import { SqliteSearchIndex } from '../sqlite/search-index.js';
import { searchQuery } from './search.js';
import { resultsText } from '../../read-api/delivery/list-text.js';

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
    let stored = 0;
    let byRow = 0;
    let text = 0;
    for (let i = 0; i < n; i++) {
      const a = process.cpuUsage();
      const hits = await ask(i, 11);
      const b = process.cpuUsage(a);
      rank += b.user + b.system;
      const keys = hits.slice(0, 11).map((h) => h.key);
      const rowids = hits.slice(0, 11).map((h) => h.rowid!);
      // Each way reads the page first every third search: the later ones find its pages in SQLite's cache.
      for (const way of [['parsed', 'stored', 'rowid'], ['stored', 'rowid', 'parsed'], ['rowid', 'parsed', 'stored']][i % 3]!) {
        const c = process.cpuUsage();
        // The general path's page: parsed payloads, shaped and serialized (JSON.stringify stands for both) ...
        if (way === 'parsed') text += JSON.stringify((await index.docsByKeys(env, folder, keys)).map((doc) => ({ _sys: { key: doc.key }, data: doc.data }))).length;
        // ... the page spliced from the stored text (docs/decisions/0260), read by key ...
        else if (way === 'stored') text += resultsText(await index.docsStoredByKeys(env, folder, keys))!.length;
        // ... and the same read by the row ids the search gave (0256).
        else text += resultsText(await index.docsStoredByKeys(env, folder, keys, rowids))!.length;
        const d = process.cpuUsage(c);
        if (way === 'parsed') docs += d.user + d.system;
        else if (way === 'stored') stored += d.user + d.system;
        else byRow += d.user + d.system;
      }
    }
    const perSearch = (micros: number) => `${(micros / n).toFixed(1)} µs`;
    console.log(`round ${round}: text top k ${perSearch(rank)}, docsByKeys + stringify ${perSearch(docs)}, docsStoredByKeys + splice ${perSearch(stored)}, by row id ${perSearch(byRow)} a search (${n} searches, ${text} bytes)`);
  }
  await index.close();
  process.exit(0);
}

void main();
