import { expect } from 'chai';
import { Database } from '../../infra/sqlite/driver.js';
import { pageSql } from '../../infra/sqlite/delivery-query-sql.js';
import { filterIndexName, filterIndexSql, indexedPaths, MAX_INDEXED_FIELDS } from '../../infra/sqlite/filter-indexes.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import type { DeliveryQuery, WhereNode } from '../../projections/delivery-query.js';
import type { DeliveryDoc, SearchIndex, SearchIndexTx } from '../../projections/ports.js';
import { activeVersionId, versionFieldsId, type SearchField } from '../../projections/search-fields.js';
import { searchIndexQueryContract } from '../contracts/search-index-query.contract.js';
import { tempDir } from '../support/temp.js';
import { numberedDoc } from '../support/search-fixtures.js';

const field = (path: string, type: string, localizable = false): SearchField => ({ path, type, localizable, searchable: false, vectorizable: false, dimensions: null });

/** The fields the query contract's payloads use (s, n, b, j: j holds any value), published for each collection it writes. */
const CONTRACT_FIELDS = [field('s', 'string'), field('n', 'number'), field('b', 'boolean'), field('j', 'integer'), field('views', 'number'), field('age', 'integer'), field('name', 'string')];

async function publish(tx: SearchIndexTx, env: string, folder: string, fields: readonly SearchField[] | null, version = 'v1'): Promise<void> {
  await tx.setMeta(versionFieldsId(env, version), fields);
  await tx.setMeta(activeVersionId(env, folder), fields === null ? null : version);
}

/** A SQLite index whose collections are published with CONTRACT_FIELDS the first time a document of theirs is written. */
function withPublishedFields(index: SqliteSearchIndex): SearchIndex {
  const published = new Set<string>();
  return new Proxy(index, {
    get(target, name, receiver) {
      if (name !== 'unitOfWork') return Reflect.get(target, name, receiver) as unknown;
      return (consumer: string, position: string, work: (tx: SearchIndexTx) => Promise<void>) =>
        target.unitOfWork(consumer, position, async (tx) => {
          const indexing = async (doc: DeliveryDoc) => {
            const id = `${doc.env}/${doc.folder}`;
            if (!published.has(id)) await publish(tx, doc.env, doc.folder, CONTRACT_FIELDS);
            published.add(id);
            await tx.index(doc);
          };
          await work(new Proxy(tx, { get: (t, n, r) => (n === 'index' ? indexing : (Reflect.get(t, n, r) as unknown)) }));
        });
    },
  });
}

const doc = numberedDoc;

/** Values of every JSON type in the indexed fields, so that the typed comparisons are held to the index's columns. */
const DOCS = [
  doc(1, { views: 5, published: true, title: 'a' }),
  doc(2, { views: 1500, published: false, title: 'b' }),
  doc(3, { views: 2000, published: true, title: 'c' }),
  doc(4, { views: '3000', published: 'true', title: 4 }),
  doc(5, { views: true, published: 1, title: null }),
  doc(6, { views: 2500.5, published: true, title: ['c'] }),
  doc(7, { views: [3000], published: true }),
  doc(8, { views: { v: 3000 }, published: null, title: "it's" }),
  doc(9, { views: 1000, published: true, title: 'é' }),
];
const FIELDS = [field('title', 'string'), field('body', 'text'), field('views', 'integer'), field('published', 'boolean'), field('intro', 'string', true), field('seo.score', 'number')];

const cond = (path: string, op: 'eq' | 'gte' | 'lte' | 'ne', value: string | number | boolean): WhereNode => ({ kind: 'condition', field: { scope: 'data', path: [path] }, op, value });
const BENCH_FILTER: WhereNode = { kind: 'all_of', items: [cond('published', 'eq', true), cond('views', 'gte', 1000), cond('views', 'lte', 1e12)] };
const query = (where: WhereNode, limit = 100): DeliveryQuery => ({ where, sort: [], limit });

async function loaded(file: string, fields: readonly SearchField[] | null = FIELDS): Promise<SqliteSearchIndex> {
  const index = new SqliteSearchIndex(file);
  await index.unitOfWork('delivery', '00000000000000000001', async (tx) => {
    await publish(tx, 'e1', 'f1', fields);
    for (const d of DOCS) await tx.index(d);
  });
  return index;
}

/** The file's filter indexes' SQL. */
function filterIndexes(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'docs\\_filter\\_%' ESCAPE '\\'").all().map((r) => r.sql);
  } finally {
    db.close();
  }
}

/** The query plan and the functions the page's program calls, on a connection of its own. */
function program(file: string, where: WhereNode): { plan: string; functions: string[] } {
  const db = new Database(file, { readonly: true });
  // The time budget's check of each row (query-task.ts), as the query threads register it; not a JSON function.
  db.function('budget_left', { deterministic: false }, () => 1);
  try {
    const { sql, params } = pageSql({ env: 'e1', folder: 'f1', where, sort: [{ field: { scope: 'sys', name: 'created_at' }, descending: false }], backward: false, limit: 20, filterIndexed: true });
    const plan = db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all(...params).map((r) => r.detail).join('; ');
    const ops = db.prepare<unknown[], { opcode: string; p4: string | null }>(`EXPLAIN ${sql}`).all(...params);
    const called = ops.filter((op) => op.opcode === 'Function' || op.opcode === 'PureFunc').map((op) => String(op.p4));
    return { plan, functions: called.filter((f) => !f.startsWith('budget_left')) };
  } finally {
    db.close();
  }
}

const keysOf = async (index: SearchIndex, where: WhereNode): Promise<string[]> => (await index.query('e1', 'f1', query(where))).items.map((d) => d.key);

describe('filter indexes of the delivery index (docs/decisions/0265)', () => {
  describe('the query contract, every collection published with indexed fields', () => {
    searchIndexQueryContract(async () => withPublishedFields(new SqliteSearchIndex(`${tempDir()}/search.db`)));
  });

  it('indexes the top-level, non-localizable short scalar fields only, at most MAX_INDEXED_FIELDS', () => {
    expect(indexedPaths(FIELDS)).to.deep.equal([`'$."title"'`, `'$."views"'`, `'$."published"'`]);
    expect(indexedPaths([field('body', 'text'), field('tags', 'array'), field('by', 'reference')])).to.deep.equal([]);
    expect(indexedPaths([field('bad key', 'string'), field('ok', 'date')])).to.deep.equal([`'$."ok"'`]);
    const many = Array.from({ length: MAX_INDEXED_FIELDS + 3 }, (_, i) => field(`f${i}`, 'integer'));
    expect(indexedPaths(many)).to.have.length(MAX_INDEXED_FIELDS);
    expect(filterIndexSql('e1', 'f1', [field('body', 'text')])).to.equal(null);
    expect(filterIndexSql("e'1", 'f1', FIELDS)).to.contain(`WHERE +env = 'e''1' AND +folder = 'f1' AND data IS NOT NULL`);
  });

  it('answers a filtered page from the index: no JSON function runs on a scanned row', async () => {
    const file = `${tempDir()}/delivery.db`;
    const index = await loaded(file);
    try {
      const { plan, functions } = program(file, BENCH_FILTER);
      expect(plan).to.contain(filterIndexName('e1', 'f1'));
      // json() of the returned rows only: the filter's json_type / json_extract values come from the index.
      expect(functions).to.deep.equal(['json(1)']);
      expect(await keysOf(index, BENCH_FILTER)).to.deep.equal(['k003', 'k006', 'k009']);
      expect(await keysOf(index, cond('title', 'eq', "it's"))).to.deep.equal(['k008']);
      expect(await keysOf(index, cond('views', 'ne', 5))).to.deep.equal(DOCS.slice(1).map((d) => d.key));
      // A field not in the index (an unknown one) still filters, from the row.
      expect(await keysOf(index, cond('other', 'eq', 1))).to.deep.equal([]);
      expect(program(file, cond('other', 'eq', 1)).functions.some((f) => f.startsWith('json_type'))).to.equal(true);
    } finally {
      await index.close();
    }
  });

  it('reads the filter index for filtered pages in creation order only, cursors both ways included', async () => {
    const file = `${tempDir()}/delivery.db`;
    const index = await loaded(file);
    const other = await loaded(`${tempDir()}/delivery.db`, [field('body', 'text')]);
    try {
      const name = filterIndexName('e1', 'f1');
      const created = (descending: boolean) => [{ field: { scope: 'sys' as const, name: 'created_at' as const }, descending }];
      const at = { values: ['2026-01-01T00:00:03Z'], key: 'k003' };
      expect(index.queryPlan('e1', 'f1', query(BENCH_FILTER))).to.contain(name);
      expect(index.queryPlan('e1', 'f1', { ...query(BENCH_FILTER), sort: created(true), after: at })).to.contain(name);
      expect(index.queryPlan('e1', 'f1', { ...query(BENCH_FILTER), before: at })).to.contain(name);
      expect((await index.query('e1', 'f1', { ...query(BENCH_FILTER), after: at })).items.map((d) => d.key)).to.deep.equal(['k006', 'k009']);
      expect((await index.query('e1', 'f1', { ...query(BENCH_FILTER), sort: created(true), after: { values: ['2026-01-01T00:00:09Z'], key: 'k009' } })).items.map((d) => d.key)).to.deep.equal(['k006', 'k003']);
      expect((await index.query('e1', 'f1', { ...query(BENCH_FILTER), before: { values: ['2026-01-01T00:00:09Z'], key: 'k009' } })).items.map((d) => d.key)).to.deep.equal(['k003', 'k006']);
      // Unfiltered, or in another order, a page keeps the indexes by collection.
      expect(index.queryPlan('e1', 'f1', { sort: [], limit: 20 })).not.to.contain(name);
      expect(index.queryPlan('e1', 'f1', { ...query(BENCH_FILTER), sort: [{ field: { scope: 'sys', name: 'key' }, descending: false }] })).not.to.contain(name);
      expect(index.queryPlan('e1', 'f1', { ...query(BENCH_FILTER), sort: [{ field: { scope: 'data', path: ['views'] }, descending: false }] })).not.to.contain(name);
      expect(filterIndexes(file)).to.have.length(1);
      expect(other.queryPlan('e1', 'f1', query(BENCH_FILTER))).to.contain('docs_by_created');
    } finally {
      await Promise.all([index.close(), other.close()]);
    }
  });

  it('answers the same pages with the index as without it', async () => {
    const withIndex = await loaded(`${tempDir()}/delivery.db`);
    const without = await loaded(`${tempDir()}/delivery.db`, null);
    try {
      const filters = [BENCH_FILTER, cond('views', 'gte', 1000), cond('views', 'lte', 1000), cond('published', 'eq', true), cond('published', 'ne', true), cond('title', 'gte', 'b'), cond('views', 'eq', 2500.5)];
      for (const where of filters) expect(await keysOf(withIndex, where)).to.deep.equal(await keysOf(without, where));
    } finally {
      await Promise.all([withIndex.close(), without.close()]);
    }
  });

  it('creates the indexes when it opens a file written without them, and keeps them when opened again', async () => {
    const file = `${tempDir()}/delivery.db`;
    await (await loaded(file)).close();
    const sql = filterIndexes(file);
    expect(sql).to.have.length(1);
    const db = new Database(file);
    db.exec(`DROP INDEX ${filterIndexName('e1', 'f1')}`);
    db.close();
    expect(filterIndexes(file)).to.deep.equal([]);
    const reopened = new SqliteSearchIndex(file);
    try {
      expect(filterIndexes(file)).to.deep.equal(sql);
      expect(program(file, BENCH_FILTER).plan).to.contain(filterIndexName('e1', 'f1'));
      expect(await keysOf(reopened, BENCH_FILTER)).to.deep.equal(['k003', 'k006', 'k009']);
    } finally {
      await reopened.close();
    }
    await new SqliteSearchIndex(file).close();
    expect(filterIndexes(file)).to.deep.equal(sql);
  });

  it('follows the published version: new fields re-create it, unpublishing drops it, a failed unit of work changes nothing', async () => {
    const file = `${tempDir()}/delivery.db`;
    const index = await loaded(file);
    try {
      await index.unitOfWork('delivery', '00000000000000000002', (tx) => publish(tx, 'e1', 'f1', [field('views', 'integer')], 'v2'));
      expect(filterIndexes(file)).to.deep.equal([filterIndexSql('e1', 'f1', [field('views', 'integer')])]);
      expect(index.queryPlan('e1', 'f1', query(BENCH_FILTER))).to.contain(filterIndexName('e1', 'f1'));
      expect(await keysOf(index, BENCH_FILTER)).to.deep.equal(['k003', 'k006', 'k009']);
      const failing = index.unitOfWork('delivery', '00000000000000000003', async (tx) => {
        await publish(tx, 'e1', 'f1', null);
        throw new Error('stop');
      });
      await failing.then(
        () => expect.fail('the unit of work should have failed'),
        (error: Error) => expect(error.message).to.equal('stop'),
      );
      expect(filterIndexes(file)).to.have.length(1);
      expect(index.queryPlan('e1', 'f1', query(BENCH_FILTER))).to.contain(filterIndexName('e1', 'f1'));
      await index.unitOfWork('delivery', '00000000000000000004', (tx) => publish(tx, 'e1', 'f1', null));
      expect(filterIndexes(file)).to.deep.equal([]);
      expect(index.queryPlan('e1', 'f1', query(BENCH_FILTER))).to.contain('docs_by_created');
      expect(await keysOf(index, BENCH_FILTER)).to.deep.equal(['k003', 'k006', 'k009']);
    } finally {
      await index.close();
    }
  });
});
