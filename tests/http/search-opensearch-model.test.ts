import { expect } from 'chai';
import { preparedWordVectors } from '../../infra/embeddings/static-embedder.js';
import { OpenSearchSearchIndex } from '../../infra/opensearch/search-index.js';
import { v1 } from '../support/content.js';
import { TEST_EMBEDDINGS_CACHE } from '../support/embeddings.js';
import { OpenSearchModel } from '../support/opensearch-model-server.js';
import { publish, search, searchableCollection } from '../support/search.js';
import { startTestService, type TestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';
import { keysOf, unitVector } from '../support/search-fixtures.js';


/**
 * `_search` end to end on the OpenSearch adapter: the service's delivery index is the real adapter
 * over an in-memory model of its server (tests/support/opensearch-model-server.ts), so the
 * projection's search step, the field copy, the search requests and their answers go the way
 * they go with OPENSEARCH_URL set.
 */
describe('delivery search on the OpenSearch adapter (in-memory model of the server)', function () {
  this.timeout(120_000);
  let s: TestService;
  let collection: string;
  const keys: Record<string, string> = {};
  const model = new OpenSearchModel();
  const BUDGET_MS = 400;

  before(async () => {
    await preparedWordVectors(TEST_EMBEDDINGS_CACHE);
    const index = new OpenSearchSearchIndex('http://127.0.0.1:1', { prefix: 'http', client: model.asClient(), queryTimeoutMs: BUDGET_MS });
    s = await startTestService({}, tempDir(), { wrapSearchIndex: () => index });
    expect((await s.api('POST', v1(s, '/locales/'), { name: 'Deutsch', code: 'de' })).status).to.equal(201);
    collection = await searchableCollection(
      s,
      'articles',
      [
        { key: 'title', type: 'string', searchable: true, vectorizable: true },
        { key: 'summary', type: 'string', searchable: true, vectorizable: true, localizable: true },
        { key: 'secret', type: 'string' },
        { key: 'embedding', type: 'vector', meta: { dimensions: 256 } },
      ],
      'site',
    );
    keys.bread = await publish(s, collection, { title: 'Baking sourdough bread', summary: { en: 'bread at home', de: 'Brot backen' }, secret: 'bicycle', embedding: unitVector(256, 0) });
    keys.bike = await publish(s, collection, { title: 'Repairing a flat bicycle tyre', summary: { en: 'bike repair' }, embedding: unitVector(256, 1) });
    keys.garden = await publish(s, collection, { title: 'Growing tomatoes in the garden', summary: { en: 'vegetables' } });
  });
  after(() => s?.stop());

  const found = async (body: unknown, query = ''): Promise<string[]> => {
    const r = await search(s, 'site/articles', body, query);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return keysOf(r.body);
  };

  it('finds by words of searchable fields only, per locale, with typo tolerance and phrases', async () => {
    expect(await found({ find_text: { query: 'bicycle tyre' } })).to.deep.equal([keys.bike]);
    expect(await found({ find_text: { query: 'brot' } }, '?search_locale=de')).to.deep.equal([keys.bread]);
    expect(await found({ find_text: { query: 'brot' } }, '?search_locale=en')).to.deep.equal([]);
    expect(await found({ find_text: { query: 'tomatos' } })).to.deep.equal([]);
    expect(await found({ find_text: { query: 'tomatos', threshold: 0.8 } })).to.deep.equal([keys.garden]);
    expect(await found({ find_phrase: { query: 'sourdough bread' } })).to.deep.equal([keys.bread]);
    expect(await found({ find_phrase: { query: 'bread sourdough' } })).to.deep.equal([]);
  });

  it('finds by meaning, by a custom vector field, and in the hybrid and boosted modes', async () => {
    expect(await found({ search_mode: 'vector', vector_search: { query: 'fixing a punctured bike wheel', top_k: 1 } })).to.deep.equal([keys.bike]);
    expect(await found({ search_mode: 'vector', vector_field_search: { field: 'embedding', query_vector: unitVector(256, 1) } })).to.deep.equal([keys.bike, keys.bread]);
    const hybrid = await found({ search_mode: 'hybrid', find_text: { query: 'sourdough' }, vector_search: { query: 'mending a punctured cycle wheel', top_k: 1 } });
    expect(hybrid).to.have.members([keys.bread, keys.bike]);
    const boosted = { search_mode: 'vector_boosted', find_text: { query: 'bread tomatoes' }, vector_search: { query: 'vegetable gardening' }, vector_boost_config: { boost_factor: 100, max_boost_results: 1 } };
    expect((await found(boosted))[0]).to.equal(keys.garden);
  });

  it('counts vectors_size, and forgets a republished text and a deleted resource', async () => {
    const created = await s.api('POST', v1(s, `/collections/${collection}/resources/`), { data: { title: 'Kayaking on the river', summary: { en: 'water sport', de: 'Wassersport' }, embedding: unitVector(256, 2) } });
    const key = created.body.key as string;
    expect(created.body.vectors_size).to.equal(3 * 100 * 4 + 256 * 4);
    expect(await found({ find_text: { query: 'kayaking' } })).to.deep.equal([key]);
    const revision = await s.api('POST', v1(s, `/collections/${collection}/resources/${key}/revisions/`), { data: { title: 'Canoeing', summary: { en: 'y' } } });
    expect((await s.api('POST', v1(s, `/collections/${collection}/resources/${key}/revisions/${revision.body.key}/publish/`), {})).status).to.equal(200);
    expect(await found({ find_text: { query: 'kayaking' } })).to.deep.equal([]);
    expect(await found({ find_text: { query: 'canoeing' } })).to.deep.equal([key]);
    expect((await s.api('GET', v1(s, `/collections/${collection}/resources/${key}/`))).body.vectors_size).to.equal(2 * 100 * 4);
    expect(await found({ search_mode: 'vector', vector_field_search: { field: 'embedding', query_vector: unitVector(256, 2) } })).to.not.include(key);
    expect((await s.api('DELETE', v1(s, `/collections/${collection}/resources/${key}/`))).status).to.equal(204);
    expect(await found({ find_text: { query: 'canoeing' } })).to.deep.equal([]);
    expect(await found({ search_mode: 'vector', vector_search: { query: 'canoeing on a lake' } })).to.not.include(key);
  });

  it('answers a search or a list that runs past QUERY_TIMEOUT_MS 503 service_unavailable with Retry-After, as on SQLite (docs/decisions/0379)', async () => {
    model.searchLatencyMs = 5_000;
    try {
      const started = performance.now();
      const slow = await search(s, 'site/articles', { find_text: { query: 'bicycle tyre' } });
      expect(slow.status).to.equal(503);
      expect(slow.body.error_code).to.equal('service_unavailable');
      expect(slow.body.detail).to.deep.include({ timeout_ms: BUDGET_MS });
      expect(slow.headers.get('retry-after')).to.equal('1');
      expect(performance.now() - started).to.be.below(4_000);
      const hybrid = await search(s, 'site/articles', { search_mode: 'hybrid', find_text: { query: 'bread' }, vector_search: { query: 'bread' } });
      expect(hybrid.status).to.equal(503);
      const list = await s.get(`${s.delivery}/site/articles/?where__title__eq=x`);
      expect(list.status).to.equal(503);
      expect(list.body.error_code).to.equal('service_unavailable');
    } finally {
      model.searchLatencyMs = 0;
    }
    // Within the budget: answered as before.
    model.searchLatencyMs = 50;
    try {
      expect(await found({ find_text: { query: 'bicycle tyre' } })).to.deep.equal([keys.bike]);
    } finally {
      model.searchLatencyMs = 0;
    }
  });
});
