// CPU time of list pages of two trees in one process, alternated: `npx tsx
// infra/bench/list-pages-ab.ts <tree A> <tree B> <delivery.db A> <delivery.db B> <env> <folder>
// [pages]`, each tree a checkout of this repository (its node_modules installed or linked) and
// each file a copy of a kept corpus's delivery index (they are opened for writing). Both trees'
// SqliteSearchIndex read the search scenario's two list pages through `queryStored` (the delivery
// front's list path): the first page after a new cursor, and the filtered first page with a new
// bound (search.ts's LIST_FILTER), in blocks of 100 that alternate which tree goes first, after a
// round that warms both; four rounds print each tree's CPU time per page and B's over A's
// (docs/decisions/0300). Run it both ways round: the ratio moves far less than either time.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DeliveryQuery } from '../../projections/delivery-query.js';
import type { SqliteSearchIndex } from '../sqlite/search-index.js';

type Index = Pick<SqliteSearchIndex, 'queryStored' | 'close'>;

async function open(tree: string, file: string): Promise<Index> {
  const module = (await import(pathToFileURL(resolve(tree, 'infra/sqlite/search-index.ts')).href)) as { SqliteSearchIndex: new (file: string) => Index };
  return new module.SqliteSearchIndex(file);
}

const field = (name: string) => ({ scope: 'data' as const, path: [name] });

/** `where__published__eq=true&where__views__gte=1000&where__views__lte=<1e12 + n>`, limit 20. */
const filtered = (n: number): DeliveryQuery => ({
  limit: 20,
  where: {
    kind: 'all_of',
    items: [
      { kind: 'condition', field: field('published'), op: 'eq', value: true },
      { kind: 'condition', field: field('views'), op: 'gte', value: 1000 },
      { kind: 'condition', field: field('views'), op: 'lte', value: 1e12 + n },
    ],
  },
});

/** The first page after a cursor no document precedes, its key new each time, limit 20. */
const unfiltered = (n: number): DeliveryQuery => ({ limit: 20, after: { values: ['0'], key: String(n) } });

async function main(): Promise<void> {
  const [treeA, treeB, fileA, fileB, env, folder, count] = process.argv.slice(2);
  if (!treeA || !treeB || !fileA || !fileB || !env || !folder) throw new Error('usage: list-pages-ab.ts <tree A> <tree B> <delivery.db A> <delivery.db B> <env> <folder> [pages]');
  const n = Number(count ?? 2000);
  const trees = [await open(treeA, fileA), await open(treeB, fileB)];
  const kinds = [
    { name: 'unfiltered', query: unfiltered },
    { name: 'filtered', query: filtered },
  ];
  for (const index of trees) for (let i = 0; i < n; i++) for (const { query } of kinds) await index.queryStored(env, folder, query(i));
  for (let round = 0; round < 4; round++) {
    const cpu = kinds.map(() => [0, 0]);
    for (let block = 0; block < n; block += 100) {
      for (const which of (block / 100) % 2 === 0 ? [0, 1] : [1, 0]) {
        for (const [k, { query }] of kinds.entries()) {
          const started = process.cpuUsage();
          for (let i = block; i < Math.min(block + 100, n); i++) await trees[which]!.queryStored(env, folder, query(i + (round + 1) * n));
          const used = process.cpuUsage(started);
          cpu[k]![which]! += used.user + used.system;
        }
      }
    }
    const line = kinds.map(({ name }, k) => {
      const [a, b] = cpu[k]!;
      return `${name} A ${(a! / n).toFixed(1)} µs, B ${(b! / n).toFixed(1)} µs, B/A ${(b! / a!).toFixed(3)}`;
    });
    console.log(`round ${round}: ${line.join('; ')} (a page)`);
  }
  for (const index of trees) await index.close();
  process.exit(0);
}

void main();
