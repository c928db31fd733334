import { expect } from 'chai';
import { DomainError } from '../../domain/errors.js';
import { generateJsonSchema } from '../../domain/schema/json-schema.js';
import type { CollectionModel, EnvModel } from '../../read-api/delivery/models.js';
import { catalogOf } from '../../read-api/delivery/query/catalog.js';
import { parseJoin } from '../../read-api/delivery/query/join.js';
import type { DeliveryApi, DeliveryRoute } from '../../read-api/delivery/routing.js';
import { fieldDef } from '../support/fields.js';

const model = (key: string, fields: Parameters<typeof generateJsonSchema>[0]): CollectionModel => ({
  key,
  alias: key,
  version: 'v',
  json_schema: null,
  catalog: catalogOf(generateJsonSchema(fields, { requiredLocales: ['en'] })),
  searchable: [],
  non_searchable: [],
  text_paths: new Set(),
});

const route = (folder: string, allowed_methods: string[]): DeliveryRoute => ({
  folder,
  steps: [{ alias: folder, folder, keyed: false }],
  chain: [],
  keep: 0,
  name: folder,
  mcp_truncate_text: 1000,
  allowed_methods,
  descriptions: { get_one: '', get_many: '', search: '', schema: '' },
});

const articles = model('articles', [fieldDef('title'), fieldDef('author', { type: 'reference' }), fieldDef('tags', { type: 'relation' }), fieldDef('views', { type: 'integer' })]);
const people = model('people', [fieldDef('name'), fieldDef('age', { type: 'integer' })]);
const envModel: EnvModel = { collections: new Map([['articles', articles], ['people', people], ['tags', model('tags', [fieldDef('label')])], ['hidden', people]]), locales: { codes: ['en'], default: 'en' } };
const api: DeliveryApi = {
  key: 'a',
  prefix: 'site',
  is_auth_required: false,
  mcp_enabled: true,
  router_introspection_enabled: true,
  unconnected: new Map(),
  cors_origins: [],
  routes: [route('articles', ['get_many', 'get_one']), route('people', ['get_many', 'get_one']), route('tags', ['get_many']), route('hidden', ['get_one'])],
};
const context = { api, model: envModel, catalog: articles.catalog, locale: 'en', readable: () => true };

const refusal = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return (error.detail?.join ?? error.detail?.where) as string[];
    throw error;
  }
  throw new Error('expected a DomainError');
};

describe('delivery join parsing', () => {
  it('turns join.as, its relations and the alias trees into join filters', () => {
    const parsed = parseJoin(
      { as: { p: 'people', t: 'tags' }, relations: [{ source: '$', target: 'p', source_field: 'author' }, { source: '$', target: 't', source_field: 'tags' }] },
      { $: { views__gt: 1 }, p: { age__gte: 30 } },
      context,
    );
    expect(parsed.aliases).to.deep.equal(new Set(['p', 't']));
    expect(parsed.joins).to.deep.equal([
      { field: ['author'], folder: 'people', where: { kind: 'condition', field: { scope: 'data', path: ['age'] }, op: 'gte', value: 30 } },
      { field: ['tags'], folder: 'tags' },
    ]);
    expect(parseJoin(undefined, {}, context).joins).to.deep.equal([]);
  });

  it('refuses more than 3 joined collections with 422', () => {
    const as = { a: 'people', b: 'people', c: 'people', d: 'people' };
    expect(refusal(() => parseJoin({ as, relations: [] }, {}, context))).to.deep.equal(['joins 1 to 3 collections']);
  });

  it('names every bad alias, collection, relation and field', () => {
    expect(
      refusal(() =>
        parseJoin(
          {
            as: { '9x': 'people', q: 'nowhere', p: 'people' },
            relations: [{ source: 'p', target: 'p', source_field: 'title' }, { source: '$', target: 'zz', source_field: 'author' }, 'x'],
          },
          {},
          context,
        ),
      ),
    ).to.deep.equal([
      'as.9x: an alias is a letter followed by letters, digits or _',
      'as.q: nowhere is not a collection this API lists',
      'relations[0].source: only "$" (the queried collection) can be a source',
      'relations[0].source_field: title is not a reference or relation field',
      'relations[1].target: zz is not an alias of join.as',
      'relations[2]: must be {source, target, source_field}',
      'as.p: no relation joins it',
    ]);
    expect(refusal(() => parseJoin({ as: {}, relations: [] }, {}, context))).to.deep.equal(['joins 1 to 3 collections']);
    // A collection connected without get_many cannot be joined.
    expect(refusal(() => parseJoin({ as: { h: 'hidden' }, relations: [{ source: '$', target: 'h', source_field: 'author' }] }, {}, context))).to.deep.equal([
      'as.h: hidden is not a collection this API lists',
      'relations[0].target: h is not an alias of join.as',
    ]);
  });

  it('checks each alias tree against its own collection, data fields only where get_one is granted', () => {
    const join = (target: string, folder: string) => ({ as: { [target]: folder }, relations: [{ source: '$', target, source_field: 'author' }] });
    expect(refusal(() => parseJoin(join('p', 'people'), { p: { title__eq: 'x' } }, context))).to.deep.equal(['p: title__eq: unknown field title']);
    expect(refusal(() => parseJoin(join('t', 'tags'), { t: { label__eq: 'x' } }, context))).to.deep.equal(['t: label__eq: unknown field label']);
    expect(parseJoin(join('t', 'tags'), { t: { '_sys.key__eq': 'k' } }, context).joins[0]?.where).to.deep.equal({
      kind: 'condition',
      field: { scope: 'sys', name: 'key' },
      op: 'eq',
      value: 'k',
    });
  });

  it('refuses with 403 access_denied a join into a collection the key may not read, once the join is well formed', () => {
    const join = { as: { p: 'people' }, relations: [{ source: '$', target: 'p', source_field: 'author' }] };
    const limited = { ...context, readable: (folder: string) => folder !== 'people' };
    let error: unknown;
    try {
      parseJoin(join, {}, limited);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(DomainError);
    expect((error as DomainError).code).to.equal('access_denied');
    expect(refusal(() => parseJoin({ as: { p: 'people' }, relations: [] }, {}, limited))).to.deep.equal(['as.p: no relation joins it']);
    expect(parseJoin(join, {}, { ...context, readable: (folder: string) => folder === 'people' }).joins).to.have.length(1);
  });
});
