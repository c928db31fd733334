// CPU time of full-text searches of two trees in one process, alternated: `npx tsx
// infra/bench/text-search-ab.ts <tree A> <tree B> <delivery.db A> <delivery.db B> <env> <folder>
// [queries]`, each tree a checkout of this repository (its node_modules installed or linked) and
// each file a copy of a kept corpus's delivery index (they are opened for writing). Both trees'
// SqliteSearchIndex answer the search scenario's two-word queries (text-search-cpu.ts's), in blocks
// of 100 that alternate which tree goes first, after a round that loads and warms both; four rounds
// print each tree's CPU time per search and B's over A's (docs/decisions/0280). On a shared
// machine the ratio moves far less than either time: run it both ways round, and once with the
// same tree twice to see its noise.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SqliteSearchIndex } from '../sqlite/search-index.js';
import { searchQuery } from './search.js';

type Index = Pick<SqliteSearchIndex, 'searchText' | 'close'>;

async function open(tree: string, file: string): Promise<Index> {
  const module = (await import(pathToFileURL(resolve(tree, 'infra/sqlite/search-index.ts')).href)) as { SqliteSearchIndex: new (file: string) => Index };
  return new module.SqliteSearchIndex(file);
}

async function main(): Promise<void> {
  const [treeA, treeB, fileA, fileB, env, folder, count] = process.argv.slice(2);
  if (!treeA || !treeB || !fileA || !fileB || !env || !folder) throw new Error('usage: text-search-ab.ts <tree A> <tree B> <delivery.db A> <delivery.db B> <env> <folder> [queries]');
  const n = Number(count ?? 3000);
  const trees = [await open(treeA, fileA), await open(treeB, fileB)];
  const fields = ['title', 'body'];
  const ask = (index: Index, i: number) => index.searchText(env, folder, { words: searchQuery(i).text.split(' '), fields, locale: null, limit: 11 });
  for (const index of trees) for (let i = 0; i < n; i++) await ask(index, i);
  for (let round = 0; round < 4; round++) {
    const cpu = [0, 0];
    for (let block = 0; block < n; block += 100) {
      for (const which of (block / 100) % 2 === 0 ? [0, 1] : [1, 0]) {
        const started = process.cpuUsage();
        for (let i = block; i < Math.min(block + 100, n); i++) await ask(trees[which]!, i);
        const used = process.cpuUsage(started);
        cpu[which]! += used.user + used.system;
      }
    }
    console.log(`round ${round}: A ${(cpu[0]! / n).toFixed(1)} µs, B ${(cpu[1]! / n).toFixed(1)} µs a search, B/A ${(cpu[1]! / cpu[0]!).toFixed(3)}`);
  }
  for (const index of trees) await index.close();
  process.exit(0);
}

void main();
