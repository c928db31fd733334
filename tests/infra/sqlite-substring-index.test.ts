import { expect } from 'chai';
import fc from 'fast-check';
import { matches } from '../../projections/delivery-query-eval.js';
import type { Condition, WhereNode } from '../../projections/delivery-query.js';
import type { DeliveryDoc } from '../../projections/ports.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { Database } from '../../infra/sqlite/driver.js';
import { tempDir } from '../support/temp.js';

const SUBSTRING_OPS = ['contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith'] as const;
/** Letters whose lower case is a trap: é/É, the dotted İ (two code units lower-cased), the sigma (lower-cased by its context), a quote. */
const letters = fc.constantFrom('a', 'A', 'b', 'B', 'é', 'É', 'İ', 'i', 'Σ', 'σ', 'ς', '"', ' ');
const text = (maxLength: number) => fc.string({ unit: letters, maxLength });
const payload = fc.record({ s: fc.option(text(12), { nil: undefined }), o: fc.record({ x: fc.option(text(12), { nil: undefined }) }), n: fc.integer() }).map((r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>);
const condition: fc.Arbitrary<WhereNode> = fc.record({
  kind: fc.constant('condition' as const),
  field: fc.constantFrom({ scope: 'data' as const, path: ['s'] }, { scope: 'data' as const, path: ['o', 'x'] }, { scope: 'data' as const, path: ['n'] }),
  op: fc.constantFrom(...SUBSTRING_OPS),
  value: text(5),
});
const tree: fc.Arbitrary<WhereNode> = fc.oneof(condition, fc.record({ kind: fc.constantFrom('all_of' as const, 'any_of' as const, 'none_of' as const), items: fc.array(condition, { maxLength: 3 }) }));

const docOf = (env: string, i: number, data: Record<string, unknown> | null): DeliveryDoc => ({
  env,
  folder: 'f',
  key: `k${String(i).padStart(2, '0')}`,
  created_at: `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`,
  updated_at: '2026-01-02T00:00:00Z',
  owner: null,
  data,
});

const contains = (value: string): WhereNode => ({ kind: 'condition', field: { scope: 'data', path: ['body'] }, op: 'contains', value }) as Condition;

describe('the substring index (docs/decisions/0338)', () => {
  it('answers substring conditions as the reference evaluator does, through writes, re-writes and removals', async function () {
    this.timeout(60_000);
    const index = new SqliteSearchIndex(`${tempDir()}/substrings.db`);
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(payload, { minLength: 1, maxLength: 8 }), fc.array(fc.option(payload, { nil: null }), { maxLength: 8 }), tree, async (first, second, where) => {
          const env = `e${run++}`;
          const docs = first.map((data, i) => docOf(env, i, data));
          // A second unit of work re-writes some documents, unpublishes (null) or removes others.
          const now = new Map(docs.map((d) => [d.key, d]));
          await index.unitOfWork('t', String(run).padStart(20, '0'), async (tx) => {
            for (const d of docs) await tx.index(d);
          });
          await index.unitOfWork('t', String(run).padStart(20, '0'), async (tx) => {
            for (const [i, data] of second.entries()) {
              if (i >= docs.length) break;
              if (i % 3 === 2) {
                await tx.remove(env, 'f', docs[i]!.key);
                now.delete(docs[i]!.key);
              } else {
                const d = docOf(env, i, data);
                await tx.index(d);
                now.set(d.key, d);
              }
            }
          });
          const expected = [...now.values()].filter((d) => d.data !== null && matches(d, where)).map((d) => d.key).sort();
          const got = (await index.query(env, 'f', { limit: 100, where, sort: [] })).items.map((d) => d.key).sort();
          expect(got).to.deep.equal(expected);
        }),
        { numRuns: 300 },
      );
    } finally {
      await index.close();
    }
  });

  it('is what a substring condition of three characters or more reads, not every document of the collection', async () => {
    const index = new SqliteSearchIndex(`${tempDir()}/plan.db`);
    try {
      await index.unitOfWork('t', '00000000000000000001', async (tx) => {
        for (let i = 0; i < 50; i++) await tx.index(docOf('e', i, { body: i === 7 ? 'a needle in a haystack' : `hay number ${i}` }));
      });
      expect(index.queryPlan('e', 'f', { limit: 20, where: contains('needle'), sort: [] })).to.match(/doc_substrings VIRTUAL TABLE/);
      expect((await index.query('e', 'f', { limit: 20, where: contains('needle'), sort: [] })).items.map((d) => d.key)).to.deep.equal(['k07']);
      // Two characters: no trigram to ask; every document's text is read.
      expect(index.queryPlan('e', 'f', { limit: 20, where: contains('ne'), sort: [] })).to.not.match(/doc_substrings/);
      expect((await index.query('e', 'f', { limit: 20, where: contains('ne'), sort: [] })).items.map((d) => d.key)).to.deep.equal(['k07']);
    } finally {
      await index.close();
    }
  });

  it('is filled at open from the documents of a file written before it', async () => {
    const file = `${tempDir()}/old.db`;
    let index = new SqliteSearchIndex(file);
    await index.unitOfWork('t', '00000000000000000001', async (tx) => {
      for (let i = 0; i < 5; i++) await tx.index(docOf('e', i, { body: `text ${i} ${i === 3 ? 'with a needle' : ''}`, o: { x: 'Nested Value' } }));
    });
    await index.close();
    const db = new Database(file);
    db.exec('DROP TABLE doc_substrings; DROP TABLE substring_paths');
    db.close();
    index = new SqliteSearchIndex(file);
    try {
      expect((await index.query('e', 'f', { limit: 20, where: contains('needle'), sort: [] })).items.map((d) => d.key)).to.deep.equal(['k03']);
      const nested: WhereNode = { kind: 'condition', field: { scope: 'data', path: ['o', 'x'] }, op: 'istartswith', value: 'nested v' };
      expect((await index.query('e', 'f', { limit: 20, where: nested, sort: [] })).items).to.have.length(5);
      expect(index.queryPlan('e', 'f', { limit: 20, where: nested, sort: [] })).to.match(/doc_substrings VIRTUAL TABLE/);
    } finally {
      await index.close();
    }
  });
});
