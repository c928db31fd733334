import { expect } from 'chai';
import { generateJsonSchema } from '../../domain/schema/json-schema.js';
import { DomainError } from '../../domain/errors.js';
import { catalogOf } from '../../read-api/delivery/query/catalog.js';
import { parseSort } from '../../read-api/delivery/query/sort.js';
import { parseWhereParams, parseWhereTree } from '../../read-api/delivery/query/where.js';
import { fieldDef } from '../support/fields.js';

const schema = generateJsonSchema(
  [
    fieldDef('title', { localizable: true }),
    fieldDef('views', { type: 'integer' }),
    fieldDef('price', { type: 'number', nullable: true }),
    fieldDef('tags', { type: 'array', meta: { items: 'string' } }),
    fieldDef('author', { type: 'reference' }),
    fieldDef('meta', { type: 'object' }),
    fieldDef('color', { parent: 'meta' }),
    fieldDef('extra', { type: 'json' }),
  ],
  { requiredLocales: ['en'] },
);
const context = { catalog: catalogOf(schema), locale: 'de' };

const refusal = (run: () => unknown): DomainError => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
};

describe('delivery query parsing', () => {
  it('reads field kinds from the published JSON schema: localizable, nullable, arrays, references, objects', () => {
    const { catalog } = context;
    expect(catalog.get('title')).to.include({ kind: 'string', localizable: true });
    expect(catalog.get('price')).to.include({ kind: 'number' });
    expect(catalog.get('tags')).to.include({ kind: 'array', items: 'string' });
    expect(catalog.get('author')).to.include({ kind: 'string', reference: true });
    expect(catalog.get('meta')?.children.get('color')).to.include({ kind: 'string' });
    expect(catalog.get('extra')).to.include({ kind: 'any' });
  });

  it('parses a body tree rooted at $ with nested groups, localizable fields in the search locale', () => {
    const tree = parseWhereTree(
      { $: { all_of: [{ title__ieq: 'hallo' }, { any_of: [{ views__gt: 3 }, { none_of: [{ 'meta.color__in': ['red'] }] }] }, { '_sys.created_at__gte': '2026' }] } },
      context,
    );
    expect(tree).to.deep.equal({
      kind: 'all_of',
      items: [
        { kind: 'condition', field: { scope: 'data', path: ['title', 'de'] }, op: 'ieq', value: 'hallo' },
        {
          kind: 'any_of',
          items: [
            { kind: 'condition', field: { scope: 'data', path: ['views'] }, op: 'gt', value: 3 },
            { kind: 'none_of', items: [{ kind: 'condition', field: { scope: 'data', path: ['meta', 'color'] }, op: 'in', value: ['red'] }] },
          ],
        },
        { kind: 'condition', field: { scope: 'sys', name: 'created_at' }, op: 'gte', value: '2026' },
      ],
    });
  });

  it('reads an object of several conditions as all of them', () => {
    expect(parseWhereTree({ $: { views__gt: 1, views__lt: 5 } }, context)).to.deep.equal({
      kind: 'all_of',
      items: [
        { kind: 'condition', field: { scope: 'data', path: ['views'] }, op: 'gt', value: 1 },
        { kind: 'condition', field: { scope: 'data', path: ['views'] }, op: 'lt', value: 5 },
      ],
    });
  });

  it('names every refused leaf of a body tree with its place', () => {
    const error = refusal(() =>
      parseWhereTree({ $: { all_of: [{ nope__eq: 1 }, { any_of: [{ views__like: 1 }, { views__eq: 'x' }] }, 'text'] }, other: {} }, context),
    );
    expect(error.code).to.equal('validation_error');
    expect(error.detail?.where).to.deep.equal([
      '$.all_of[0]: nope__eq: unknown field nope',
      '$.all_of[1].any_of[0]: views__like: unknown operator like',
      '$.all_of[1].any_of[1]: views__eq: the value must be an integer',
      '$.all_of[2]: must be an object of all_of / any_of / none_of groups and <field>__<operator> conditions',
      'other: unknown collection alias (the queried collection is "$")',
    ]);
    expect(refusal(() => parseWhereTree({ $: { all_of: {} } }, context)).detail?.where).to.deep.equal(['$.all_of: must be a list of conditions and groups']);
    expect(refusal(() => parseWhereTree([], context)).detail?.where).to.deep.equal(['must be an object keyed by "$"']);
  });

  it('checks values per operator and field kind', () => {
    const ok = (leaf: string, value: unknown) => expect(() => parseWhereTree({ $: { [leaf]: value } }, context), leaf).to.not.throw();
    const bad = (leaf: string, value: unknown) => expect(refusal(() => parseWhereTree({ $: { [leaf]: value } }, context)).code, leaf).to.equal('validation_error');
    ok('tags__includes', 'x');
    bad('tags__includes', 1);
    bad('views__includes', 1);
    ok('price__between', [1, 2.5]);
    bad('price__between', [1, 'x']);
    bad('price__in', []);
    bad('price__in', Array.from({ length: 101 }, (_, i) => i));
    ok('extra__eq', true);
    ok('extra__contains', 'x');
    bad('extra__contains', 1);
    ok('meta__exists', false);
    bad('meta__eq', {});
    bad('title__gt', null);
    bad('meta.color.x__eq', 'x');
  });

  it('reads GET filters per field kind, lists split on commas', () => {
    expect(parseWhereParams({ where__views__in: '1,2', where__title__exists: 'true', limit: '5' }, context)).to.deep.equal({
      kind: 'all_of',
      items: [
        { kind: 'condition', field: { scope: 'data', path: ['views'] }, op: 'in', value: [1, 2] },
        { kind: 'condition', field: { scope: 'data', path: ['title', 'de'] }, op: 'exists', value: true },
      ],
    });
    expect(refusal(() => parseWhereParams({ where__views__in: ['1', '2'] }, context)).detail).to.deep.equal({ where__views__in: ['must be given once'] });
  });

  it('parses sort lists and refuses non-scalar fields and too many keys', () => {
    expect(parseSort('-views,_sys.key', context)).to.deep.equal([
      { field: { scope: 'data', path: ['views'] }, descending: true },
      { field: { scope: 'sys', name: 'key' }, descending: false },
    ]);
    expect(parseSort(['title'], context)).to.deep.equal([{ field: { scope: 'data', path: ['title', 'de'] }, descending: false }]);
    for (const bad of ['tags', 'meta', 'extra', '-', '', 'a,b,c,d,e,f', 'nope']) expect(refusal(() => parseSort(bad, context)).detail, bad).to.have.property('sort');
  });
});
