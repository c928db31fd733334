import { expect } from 'chai';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { OPERATORS, type Condition, type FieldRef, type Operator, type QueryScalar, type SortKey, type WhereNode } from '../../projections/delivery-query.js';
import { compareDocs, cursorOf, joinHolds, matches } from '../../projections/delivery-query-eval.js';
import type { DeliveryDoc, SearchIndex } from '../../projections/ports.js';

/**
 * The SearchIndex query contract: filters, sorts and cursor pages of the delivery query AST,
 * held to the reference evaluator (projections/delivery-query-eval.ts) on random documents
 * and random trees, and a few fixed cases that name the behaviour.
 */

const data = (path: string[]): FieldRef => ({ scope: 'data', path });
const cond = (field: FieldRef, op: Operator, value: Condition['value']): Condition => ({ kind: 'condition', field, op, value });

const letters = fc.constantFrom('a', 'A', 'b', 'B', 'é', 'É', ' ');
const text = fc.string({ unit: letters, maxLength: 3 });
const num = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, -1.5));
const scalar: fc.Arbitrary<QueryScalar> = fc.oneof(text, num, fc.boolean());
const anyValue: fc.Arbitrary<unknown> = fc.oneof(scalar, fc.constant(null), fc.array(scalar, { maxLength: 3 }), fc.record({ x: scalar }));

/** Optional properties: a key may be missing, present with null, or set. */
const maybe = (arb: fc.Arbitrary<unknown>) => fc.option(fc.option(arb, { nil: null }), { nil: undefined });

const payload = fc
  .record({ s: maybe(text), n: maybe(num), b: maybe(fc.boolean()), t: maybe(fc.array(text, { maxLength: 3 })), o: maybe(fc.record({ x: maybe(scalar) })), j: maybe(anyValue) })
  .map((record) => JSON.parse(JSON.stringify(record)) as Record<string, unknown>);

const FIELDS: readonly FieldRef[] = [
  data(['s']),
  data(['n']),
  data(['b']),
  data(['t']),
  data(['o', 'x']),
  data(['o']),
  data(['j']),
  { scope: 'sys', name: 'key' },
  { scope: 'sys', name: 'created_at' },
];

const valueFor = (op: Operator): fc.Arbitrary<Condition['value']> => {
  if (op === 'exists' || op === 'isnull') return fc.boolean();
  if (op === 'in' || op === 'nin' || op === 'iin') return fc.array(scalar, { minLength: 1, maxLength: 3 });
  if (op === 'between') return fc.oneof(fc.tuple(num, num), fc.tuple(text, text));
  return scalar;
};

const condition: fc.Arbitrary<WhereNode> = fc
  .record({ field: fc.constantFrom(...FIELDS), op: fc.constantFrom(...OPERATORS) })
  .chain(({ field, op }) => valueFor(op).map((value) => cond(field, op, value)));

const tree: fc.Arbitrary<WhereNode> = fc.letrec<{ node: WhereNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    condition,
    fc.record({ kind: fc.constantFrom('all_of' as const, 'any_of' as const, 'none_of' as const), items: fc.array(tie('node'), { maxLength: 3 }) }),
  ),
})).node;

const SORTABLE: readonly FieldRef[] = [data(['s']), data(['n']), data(['b']), data(['o', 'x']), data(['j']), { scope: 'sys', name: 'created_at' }, { scope: 'sys', name: 'key' }];
const sort: fc.Arbitrary<SortKey[]> = fc.array(fc.record({ field: fc.constantFrom(...SORTABLE), descending: fc.boolean() }), { maxLength: 2 });

const docsOf = (env: string, payloads: Record<string, unknown>[], times: number[], folder = 'f'): DeliveryDoc[] =>
  payloads.map((d, i) => ({
    env,
    folder,
    key: `k${String(i).padStart(2, '0')}`,
    created_at: `2026-01-01T00:00:0${times[i] ?? 0}Z`,
    updated_at: '2026-01-02T00:00:00Z',
    owner: null,
    data: d,
  }));

export function searchIndexQueryContract(open: () => Promise<SearchIndex>, runs = 60): void {
  let index: SearchIndex;
  before(async () => {
    index = await open();
  });
  after(async () => index.close());

  const load = async (docs: DeliveryDoc[]): Promise<void> =>
    index.unitOfWork('t', '00000000000000000001', async (tx) => {
      for (const d of docs) await tx.index(d);
    });

  const fixed = async (): Promise<string> => {
    const env = `e${randomUUID().slice(0, 8)}`;
    await load(
      docsOf(
        env,
        [
          { title: { en: 'Hello World', de: 'Hallo' }, views: 10, tags: ['news', 'tech'], author: { name: 'Ann' } },
          { title: { en: 'hello there' }, views: 3, tags: ['tech'], author: { name: 'Bob' } },
          { title: { en: 'Other' }, views: 7.5, tags: [], author: null },
          { title: { en: 'Éclair' }, views: null },
        ],
        [1, 2, 3, 4],
      ),
    );
    return env;
  };
  const keys = async (env: string, where: WhereNode, sortKeys: SortKey[] = []): Promise<string[]> =>
    (await index.query(env, 'f', { limit: 100, where, sort: sortKeys })).items.map((d) => d.key);

  it('filters by equality, case-insensitive text, ranges and array membership inside the engine', async () => {
    const env = await fixed();
    expect(await keys(env, cond(data(['title', 'en']), 'eq', 'Hello World'))).to.deep.equal(['k00']);
    expect(await keys(env, cond(data(['title', 'en']), 'istartswith', 'HELLO'))).to.deep.equal(['k00', 'k01']);
    expect(await keys(env, cond(data(['title', 'en']), 'ieq', 'éCLAIR'))).to.deep.equal(['k03']);
    expect(await keys(env, cond(data(['views']), 'between', [3, 7.5]))).to.deep.equal(['k01', 'k02']);
    expect(await keys(env, cond(data(['views']), 'gt', '5'))).to.deep.equal([]);
    expect(await keys(env, cond(data(['tags']), 'includes', 'tech'))).to.deep.equal(['k00', 'k01']);
    expect(await keys(env, cond(data(['author', 'name']), 'in', ['Bob', 'Cy']))).to.deep.equal(['k01']);
    expect(await keys(env, cond(data(['views']), 'isnull', true))).to.deep.equal(['k03']);
    expect(await keys(env, cond(data(['author']), 'exists', false))).to.deep.equal(['k03']);
    expect(await keys(env, cond({ scope: 'sys', name: 'created_at' }, 'gte', '2026-01-01T00:00:03Z'))).to.deep.equal(['k02', 'k03']);
  });

  it('combines all_of, any_of and none_of groups', async () => {
    const env = await fixed();
    const where: WhereNode = {
      kind: 'all_of',
      items: [
        { kind: 'any_of', items: [cond(data(['views']), 'lt', 5), cond(data(['tags']), 'includes', 'news')] },
        { kind: 'none_of', items: [cond(data(['author', 'name']), 'eq', 'Bob')] },
      ],
    };
    expect(await keys(env, where)).to.deep.equal(['k00']);
  });

  it('sorts by data fields descending with nulls last, then by key', async () => {
    const env = await fixed();
    const all: WhereNode = { kind: 'all_of', items: [] };
    expect(await keys(env, all, [{ field: data(['views']), descending: true }])).to.deep.equal(['k00', 'k02', 'k01', 'k03']);
    expect(await keys(env, all, [{ field: data(['title', 'en']), descending: false }])).to.deep.equal(['k00', 'k02', 'k01', 'k03']);
  });

  it('joins through a reference or relation field to documents of another collection matching their own tree', async () => {
    const env = `e${randomUUID().slice(0, 8)}`;
    const people = docsOf(env, [{ name: 'Ann', age: 30 }, { name: 'Bob', age: 20 }, { name: 'Cy', age: 40 }], [1, 2, 3], 'people');
    await load([...people, { ...docsOf(env, [{}], [4], 'people')[0]!, key: 'k09', data: null }]);
    await load(
      docsOf(env, [{ by: 'people::k00' }, { by: ['people::k01', 'people::k02'] }, { by: 'people::k09' }, { by: 'other::k00' }, { by: 5 }, {}], [1, 2, 3, 4, 5, 6]),
    );
    const joined = async (where?: WhereNode) => (await index.query(env, 'f', { limit: 100, joins: [{ field: ['by'], folder: 'people', where }] })).items.map((d) => d.key);
    expect(await joined()).to.deep.equal(['k00', 'k01']);
    expect(await joined(cond(data(['age']), 'gte', 35))).to.deep.equal(['k01']);
    expect(await joined(cond(data(['name']), 'eq', 'Ann'))).to.deep.equal(['k00']);
    const both = await index.query(env, 'f', {
      limit: 100,
      joins: [
        { field: ['by'], folder: 'people', where: cond(data(['age']), 'lt', 25) },
        { field: ['by'], folder: 'people', where: cond(data(['age']), 'gt', 35) },
      ],
    });
    expect(both.items.map((d) => d.key)).to.deep.equal(['k01']);
  });

  it('matches the reference evaluator on random joins', async function () {
    this.timeout(60_000);
    const ref = fc.oneof(fc.integer({ min: 0, max: 4 }).map((n) => `g::k0${n}`), fc.constantFrom('h::k00', 'g::', 'x'));
    const link = fc.option(fc.oneof(ref, fc.array(ref, { maxLength: 3 }), num), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(fc.array(payload, { minLength: 1, maxLength: 5 }), fc.array(link, { minLength: 1, maxLength: 8 }), fc.option(tree, { nil: undefined }), async (targets, links, where) => {
        const env = `e${randomUUID().slice(0, 8)}`;
        const joinedDocs = docsOf(env, targets, [0, 1, 2, 3, 4], 'g');
        const docs = docsOf(env, links.map((by) => (by === undefined ? {} : { by })), [0, 1, 2, 3, 0, 1, 2, 3]);
        await load([...joinedDocs, ...docs]);
        const join = { field: ['by'], folder: 'g', where };
        const lookup = (folder: string, key: string) => joinedDocs.find((d) => d.folder === folder && d.key === key) ?? null;
        const expected = docs.filter((d) => joinHolds(d, join, lookup)).sort(compareDocs([])).map((d) => d.key);
        const got = await index.query(env, 'f', { limit: 100, joins: [join] });
        expect(got.items.map((d) => d.key)).to.deep.equal(expected);
      }),
      { numRuns: Math.ceil(runs / 2) },
    );
  });

  it('matches the reference evaluator on random documents, trees and sorts, page by page both ways', async function () {
    this.timeout(60_000);
    await fc.assert(
      fc.asyncProperty(fc.array(payload, { minLength: 1, maxLength: 10 }), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 10, maxLength: 10 }), tree, sort, async (payloads, times, where, sortKeys) => {
        const env = `e${randomUUID().slice(0, 8)}`;
        const docs = docsOf(env, payloads, times);
        await load(docs);
        const expected = docs.filter((d) => matches(d, where)).sort(compareDocs(sortKeys)).map((d) => d.key);
        const got: string[] = [];
        let page = await index.query(env, 'f', { limit: 3, where, sort: sortKeys });
        got.push(...page.items.map((d) => d.key));
        const effective = sortKeys.length > 0 ? sortKeys : [{ field: { scope: 'sys', name: 'created_at' } as FieldRef, descending: false }];
        for (let guard = 0; page.hasMore && guard < 10; guard++) {
          const last = page.items[page.items.length - 1] as DeliveryDoc;
          page = await index.query(env, 'f', { limit: 3, where, sort: sortKeys, after: cursorOf(last, effective) });
          got.push(...page.items.map((d) => d.key));
        }
        expect(got).to.deep.equal(expected);
        if (expected.length > 1) {
          const lastDoc = docs.find((d) => d.key === expected[expected.length - 1]) as DeliveryDoc;
          const back = await index.query(env, 'f', { limit: 100, where, sort: sortKeys, before: cursorOf(lastDoc, effective) });
          expect(back.items.map((d) => d.key)).to.deep.equal(expected.slice(0, -1));
        }
      }),
      { numRuns: runs },
    );
  });
}
