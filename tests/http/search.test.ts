import { expect } from 'chai';
import { preparedWordVectors } from '../../infra/embeddings/static-embedder.js';
import { v1 } from '../support/content.js';
import { TEST_EMBEDDINGS_CACHE } from '../support/embeddings.js';
import { follow, publish, search, searchableCollection } from '../support/search.js';
import { startTestService, type TestService } from '../support/service.js';
import { keysOf, unitVector } from '../support/search-fixtures.js';


describe('delivery search: POST {prefix}/{collection}/_search', function () {
  // The first run on a machine converts the word vectors once (seconds; more on a busy CI).
  this.timeout(120_000);
  let s: TestService;
  let collection: string;
  const keys: Record<string, string> = {};

  before(async () => {
    await preparedWordVectors(TEST_EMBEDDINGS_CACHE);
    s = await startTestService();
    expect((await s.api('POST', v1(s, '/locales/'), { name: 'Deutsch', code: 'de' })).status).to.equal(201);
    collection = await searchableCollection(
      s,
      'articles',
      [
        { key: 'title', type: 'string', searchable: true, vectorizable: true },
        { key: 'body', type: 'text', searchable: true, vectorizable: true },
        { key: 'summary', type: 'string', searchable: true, vectorizable: true, localizable: true },
        { key: 'secret', type: 'string' },
        { key: 'embedding', type: 'vector', meta: { dimensions: 256 } },
      ],
      'site',
    );
    keys.bread = await publish(s, collection, {
      title: 'Baking sourdough bread',
      body: 'Flour, water and a starter make a crusty loaf.',
      summary: { en: 'bread at home', de: 'Brot backen zu Hause' },
      secret: 'bicycle',
      embedding: unitVector(256, 0),
    });
    keys.bike = await publish(s, collection, {
      title: 'Repairing a flat bicycle tyre',
      body: 'Patch the inner tube and pump it up again.',
      summary: { en: 'bike repair' },
      embedding: unitVector(256, 1),
    });
    keys.garden = await publish(s, collection, { title: 'Growing tomatoes in the garden', body: 'Sun, water and patience.', summary: { en: 'vegetables' } });
  });
  after(() => s?.stop());

  describe('text mode', () => {
    it('finds documents by words of their searchable fields, best BM25 first', async () => {
      const r = await search(s, 'site/articles', { find_text: { query: 'bicycle tyre' } });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(keysOf(r.body)).to.deep.equal([keys.bike]);
      expect(r.body.results[0].data.title).to.equal('Repairing a flat bicycle tyre');
      expect(r.body).to.include({ limit: 100, next: null, previous: null });
      expect(r.body.metadata).to.deep.include({ search_mode: 'text', limit: 100 });
    });

    it('never matches a field that is not searchable', async () => {
      const r = await search(s, 'site/articles', { find_text: { query: 'bicycle' }, search_mode: 'text' });
      expect(keysOf(r.body)).to.deep.equal([keys.bike]);
    });

    it('restricts find_text to the named fields and matches an exact find_phrase only', async () => {
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'water', fields: ['title'] } })).body)).to.deep.equal([]);
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'water', fields: ['body'] } })).body)).to.have.members([keys.bread, keys.garden]);
      expect(keysOf((await search(s, 'site/articles', { find_phrase: { query: 'crusty loaf' } })).body)).to.deep.equal([keys.bread]);
      expect(keysOf((await search(s, 'site/articles', { find_phrase: { query: 'loaf crusty' } })).body)).to.deep.equal([]);
    });

    it('searches one locale with search_locale, and forgives typos below threshold 1', async () => {
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'brot' } }, '?search_locale=de')).body)).to.deep.equal([keys.bread]);
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'brot' } }, '?search_locale=en')).body)).to.deep.equal([]);
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'tomato' } })).body)).to.deep.equal([]);
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'tomatos' } })).body)).to.deep.equal([]);
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'tomatos', threshold: 0.8 } })).body)).to.deep.equal([keys.garden]);
    });

    it('lists the collection when nothing is searched, with fields and return_locales shaping the data', async () => {
      const r = await search(s, 'site/articles', { fields: ['title', 'summary'] }, '?return_locales=de');
      expect(keysOf(r.body)).to.deep.equal([keys.bread, keys.bike, keys.garden]);
      expect(r.body.results[0].data).to.deep.equal({ title: 'Baking sourdough bread', summary: { de: 'Brot backen zu Hause' } });
    });

    it('filters with the where tree and orders with sort, ranked or not', async () => {
      const where = { $: { all_of: [{ title__startswith: 'Grow' }] } };
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'water' }, where })).body)).to.deep.equal([keys.garden]);
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'water' }, sort: ['-title'] })).body)).to.deep.equal([keys.garden, keys.bread]);
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'water' }, sort: ['title'] })).body)).to.deep.equal([keys.bread, keys.garden]);
      const listed = await search(s, 'site/articles', { where: { $: { none_of: [{ title__icontains: 'TOMATOES' }] } }, sort: ['-_sys.created_at'] });
      expect(keysOf(listed.body)).to.deep.equal([keys.bike, keys.bread]);
      const near = await search(s, 'site/articles', { search_mode: 'vector', vector_search: { query: 'fixing a punctured bike wheel' }, where: { $: { all_of: [{ title__ne: 'Repairing a flat bicycle tyre' }] } } });
      expect(keysOf(near.body)).to.not.include(keys.bike);
    });

    it('pages a plain listing with keyset cursors', async () => {
      const first = await search(s, 'site/articles', { limit: 2, sort: ['title'] });
      expect(keysOf(first.body)).to.deep.equal([keys.bread, keys.garden]);
      const second = await follow(first.body.next, { limit: 2, sort: ['title'] });
      expect(keysOf(second.body)).to.deep.equal([keys.bike]);
      expect(second.body.next).to.equal(null);
      expect(keysOf((await follow(second.body.previous, { limit: 2, sort: ['title'] })).body)).to.deep.equal([keys.bread, keys.garden]);
    });

    it('pages with limit and next / previous cursors', async () => {
      const body = { find_text: { query: 'water patch bread' }, limit: 1 };
      const first = await search(s, 'site/articles', body);
      expect(first.body.results).to.have.length(1);
      const second = await follow(first.body.next, body);
      const third = await follow(second.body.next, body);
      expect(third.body.next).to.equal(null);
      const all = [first, second, third].flatMap((r) => keysOf(r.body));
      expect(all).to.have.members([keys.bread, keys.bike, keys.garden]);
      const back = await follow(third.body.previous, body);
      expect(keysOf(back.body)).to.deep.equal(keysOf(second.body));
    });
  });

  describe('vector modes', () => {
    it('vector: finds a paraphrase that shares no word with the query', async () => {
      const r = await search(s, 'site/articles', { search_mode: 'vector', vector_search: { query: 'fixing a punctured bike wheel', top_k: 1 } });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(keysOf(r.body)).to.deep.equal([keys.bike]);
      expect(r.body.metadata).to.deep.include({ search_mode: 'vector', vector_search_enabled: true });
    });

    it('vector: a similarity_threshold of 1 keeps nothing that is not the same direction', async () => {
      const r = await search(s, 'site/articles', { search_mode: 'vector', vector_search: { query: 'fixing a punctured bike wheel', similarity_threshold: 0.999 } });
      expect(keysOf(r.body)).to.deep.equal([]);
    });

    it('vector: vector_field_search ranks by a custom vector field', async () => {
      const r = await search(s, 'site/articles', { search_mode: 'vector', vector_field_search: { field: 'embedding', query_vector: unitVector(256, 1), top_k: 5 } });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(keysOf(r.body)).to.deep.equal([keys.bike, keys.bread]);
    });

    it('hybrid: fuses the text and vector rankings', async () => {
      const r = await search(s, 'site/articles', {
        search_mode: 'hybrid',
        find_text: { query: 'sourdough' },
        vector_search: { query: 'mending a punctured cycle wheel', top_k: 1 },
        hybrid_config: { vector_weight: 0.5, text_weight: 0.5 },
      });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(keysOf(r.body)).to.have.members([keys.bread, keys.bike]);
    });

    it('vector_boosted: returns the text matches only, those near the vector query first', async () => {
      const body = { search_mode: 'vector_boosted', find_text: { query: 'water' }, vector_search: { query: 'vegetable gardening' }, vector_boost_config: { boost_factor: 100, max_boost_results: 1 } };
      const r = await search(s, 'site/articles', body);
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(keysOf(r.body)).to.deep.equal([keys.garden, keys.bread]);
    });
  });

  describe('refusals: 422 validation_error naming the field', () => {
    const refused = async (body: unknown, field: string, query = '') => {
      const r = await search(s, 'site/articles', body, query);
      expect(r.status, JSON.stringify(r.body)).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
      expect(r.body.detail, JSON.stringify(r.body.detail)).to.have.property(field);
    };

    it('an unknown mode, an unknown key, a wrong type', async () => {
      await refused({ search_mode: 'fuzzy' }, 'search_mode');
      await refused({ find_txt: { query: 'x' } }, 'find_txt');
      await refused({ find_text: { query: 5 } }, 'find_text.query');
      await refused({ find_text: {} }, 'find_text.query');
      await refused({ find_text: { query: 'x', typo: 1 } }, 'find_text.typo');
      await refused({ find_text: { query: 'x', threshold: 1.5 } }, 'find_text.threshold');
      await refused({ find_text: { query: '' } }, 'find_text.query');
      await refused({ find_text: { query: '!!!' } }, 'find_text.query');
      await refused({ limit: 0 }, 'limit');
      await refused('[1]', 'body');
      await refused({ join: { as: {} } }, 'join');
      await refused({ where: { $: { all_of: [{ title__near: 'x' }] } } }, 'where');
      await refused({ where: { $: { all_of: [{ nope__eq: 'x' }] } } }, 'where');
      await refused({ sort: ['nope'] }, 'sort');
      await refused({ sort: 'title' }, 'sort');
    });

    it('find_text and find_phrase together; vector_search and vector_field_search together', async () => {
      await refused({ find_text: { query: 'a' }, find_phrase: { query: 'b' } }, 'find_phrase');
      await refused(
        { search_mode: 'vector', vector_search: { query: 'abc' }, vector_field_search: { field: 'embedding', query_vector: unitVector(256, 0) } },
        'vector_field_search',
      );
    });

    it('text mode refuses vector parts; vector mode needs one and refuses text', async () => {
      await refused({ vector_search: { query: 'bread' } }, 'vector_search');
      await refused({ search_mode: 'text', vector_field_search: { field: 'embedding', query_vector: unitVector(256, 0) } }, 'vector_field_search');
      await refused({ search_mode: 'vector' }, 'vector_search');
      await refused({ search_mode: 'vector', vector_search: { query: 'bread' }, find_text: { query: 'bread' } }, 'find_text');
      await refused({ search_mode: 'vector', vector_search: { query: 'bread' }, find_phrase: { query: 'bread' } }, 'find_phrase');
    });

    it('hybrid needs vector_search and a text part, refuses vector_field_search; vector_boosted needs both parts', async () => {
      await refused({ search_mode: 'hybrid', find_text: { query: 'bread' } }, 'vector_search');
      await refused({ search_mode: 'hybrid', vector_search: { query: 'bread' } }, 'find_text');
      await refused({ search_mode: 'hybrid', find_text: { query: 'b' }, vector_field_search: { field: 'embedding', query_vector: unitVector(256, 0) } }, 'vector_field_search');
      await refused({ search_mode: 'vector_boosted', vector_search: { query: 'bread' } }, 'find_text');
      await refused({ search_mode: 'vector_boosted', find_text: { query: 'bread' } }, 'vector_search');
    });

    it('hybrid_config weights must sum to 1 and stay in 0..1; configs belong to their mode', async () => {
      const hybrid = { search_mode: 'hybrid', find_text: { query: 'bread' }, vector_search: { query: 'bread' } };
      await refused({ ...hybrid, hybrid_config: { vector_weight: 0.7, text_weight: 0.7 } }, 'hybrid_config');
      await refused({ ...hybrid, hybrid_config: { vector_weight: 1.2 } }, 'hybrid_config.vector_weight');
      await refused({ ...hybrid, hybrid_config: { rerank_results: 'yes' } }, 'hybrid_config.rerank_results');
      await refused({ find_text: { query: 'bread' }, hybrid_config: {} }, 'hybrid_config');
      await refused({ ...hybrid, vector_boost_config: {} }, 'vector_boost_config');
      await refused({ ...hybrid, hybrid_config: { vector_weight: 0.3 } }, 'hybrid_config');
      const ok = await search(s, 'site/articles', { ...hybrid, hybrid_config: { vector_weight: 0.3, text_weight: 0.7 } });
      expect(ok.status).to.equal(200);
    });

    it('vector_boost_config: boost_factor above 0, max_boost_results from 1, similarity_threshold in 0..1', async () => {
      const boosted = { search_mode: 'vector_boosted', find_text: { query: 'bread' }, vector_search: { query: 'bread' } };
      await refused({ ...boosted, vector_boost_config: { boost_factor: 0 } }, 'vector_boost_config.boost_factor');
      await refused({ ...boosted, vector_boost_config: { max_boost_results: 0 } }, 'vector_boost_config.max_boost_results');
      await refused({ ...boosted, vector_boost_config: { similarity_threshold: -0.1 } }, 'vector_boost_config.similarity_threshold');
    });

    it('vector_search: query of at least 3 characters, top_k from 1, threshold in 0..1, vectorizable fields only', async () => {
      await refused({ search_mode: 'vector', vector_search: { query: 'ab' } }, 'vector_search.query');
      await refused({ search_mode: 'vector', vector_search: { query: '   ab  ' } }, 'vector_search.query');
      await refused({ search_mode: 'vector', vector_search: { query: 'bread', top_k: 0 } }, 'vector_search.top_k');
      await refused({ search_mode: 'vector', vector_search: { query: 'bread', similarity_threshold: 2 } }, 'vector_search.similarity_threshold');
      await refused({ search_mode: 'vector', vector_search: { query: 'bread', fields: ['secret'] } }, 'vector_search.fields.0');
      await refused({ search_mode: 'vector', vector_search: { query: 'bread', fields: ['nope'] } }, 'vector_search.fields.0');
    });

    it('vector_field_search: a vector field, of its dimension, finite numbers', async () => {
      await refused({ search_mode: 'vector', vector_field_search: { field: 'title', query_vector: [1, 2] } }, 'vector_field_search.field');
      await refused({ search_mode: 'vector', vector_field_search: { field: 'nope', query_vector: [1, 2] } }, 'vector_field_search.field');
      await refused({ search_mode: 'vector', vector_field_search: { field: 'embedding', query_vector: [1, 2, 3] } }, 'vector_field_search.query_vector');
      await refused({ search_mode: 'vector', vector_field_search: { field: 'embedding', query_vector: [] } }, 'vector_field_search.query_vector');
      await refused({ search_mode: 'vector', vector_field_search: { field: 'embedding', query_vector: ['1'] } }, 'vector_field_search.query_vector.0');
    });

    it('find_text fields must be searchable fields of the collection; fields must exist', async () => {
      await refused({ find_text: { query: 'bread', fields: ['secret'] } }, 'find_text.fields.0');
      await refused({ find_phrase: { query: 'bread', fields: ['nope'] } }, 'find_phrase.fields.0');
      await refused({ fields: ['nope'] }, 'fields.0');
    });

    it('bad cursors, limits and locales in the query string', async () => {
      await refused({}, 'next', '?next=zzz');
      await refused({}, 'limit', '?limit=0');
      await refused({}, 'next', '?next=eyJvIjoxfQ&previous=eyJvIjoxfQ');
      await refused({}, 'return_locales', '?return_locales=,');
      await refused({}, 'return_locales', '?return_locales=xx');
      await refused({}, 'search_locale', '?search_locale=xx');
      await refused({}, 'where__title__eq', '?where__title__eq=x');
      await refused({}, 'sort', '?sort=title');
    });
  });

  describe('access', () => {
    it('answers 403 when the connection does not allow get_many, 404 for an unknown collection or an item path', async () => {
      const other = await searchableCollection(s, 'notes', [{ key: 'title', type: 'string', searchable: true }], 'only-one', ['get_one']);
      await publish(s, other, { title: 'hello' });
      const denied = await search(s, 'only-one/notes', { find_text: { query: 'hello' } });
      expect([denied.status, denied.body.error_code]).to.deep.equal([403, 'permission_denied']);
      expect((await search(s, 'site/nothing', {})).body.error_code).to.equal('collection_not_found');
      expect((await search(s, `site/articles/${keys.bread}`, {})).status).to.equal(404);
    });

    it('returns _sys only on a connection with get_many but not get_one', async () => {
      const other = await searchableCollection(s, 'memos', [{ key: 'title', type: 'string', searchable: true }], 'keys-only', ['get_many']);
      const key = await publish(s, other, { title: 'hello world' });
      const r = await search(s, 'keys-only/memos', { find_text: { query: 'hello' } });
      expect(r.body.results).to.deep.equal([{ _sys: r.body.results[0]._sys }]);
      expect(r.body.results[0]._sys.key).to.equal(key);
    });
  });

  describe('the index follows the resources', () => {
    it('counts stored vector bytes in vectors_size, and forgets a deleted or unpublished resource', async () => {
      const created = await s.api('POST', v1(s, `/collections/${collection}/resources/`), {
        data: { title: 'Kayaking on the river', body: 'Paddles and a spray deck.', summary: { en: 'water sport', de: 'Wassersport' }, embedding: unitVector(256, 2) },
      });
      const key = created.body.key as string;
      expect(created.body.vectors_size).to.equal(4 * 100 * 4 + 256 * 4);
      // title, body, summary en + de: four 100-dimension float32 embeddings; the custom vector: 256 float32
      const resource = await s.api('GET', v1(s, `/collections/${collection}/resources/${key}/`));
      expect(resource.body.vectors_size).to.equal(4 * 100 * 4 + 256 * 4);
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'kayaking' } })).body)).to.deep.equal([key]);
      const revision = await s.api('POST', v1(s, `/collections/${collection}/resources/${key}/revisions/`), { data: { title: 'Canoeing', body: 'x', summary: { en: 'y' } } });
      expect(revision.status, JSON.stringify(revision.body)).to.equal(201);
      expect((await s.api('POST', v1(s, `/collections/${collection}/resources/${key}/revisions/${revision.body.key}/publish/`), {})).status).to.equal(200);
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'kayaking' } })).body)).to.deep.equal([]);
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'canoeing' } })).body)).to.deep.equal([key]);
      expect((await s.api('GET', v1(s, `/collections/${collection}/resources/${key}/`))).body.vectors_size).to.equal(3 * 100 * 4);
      expect((await s.api('DELETE', v1(s, `/collections/${collection}/resources/${key}/`))).status).to.equal(204);
      expect(keysOf((await search(s, 'site/articles', { find_text: { query: 'canoeing' } })).body)).to.deep.equal([]);
      const near = await search(s, 'site/articles', { search_mode: 'vector', vector_field_search: { field: 'embedding', query_vector: unitVector(256, 2) } });
      expect(keysOf(near.body)).to.not.include(key);
    });
  });
});
