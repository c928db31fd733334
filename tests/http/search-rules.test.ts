import { expect } from 'chai';
import { preparedWordVectors } from '../../infra/embeddings/static-embedder.js';
import { TEST_EMBEDDINGS_CACHE } from '../support/embeddings.js';
import { follow, publish, search, searchableCollection } from '../support/search.js';
import { startTestService, type TestService } from '../support/service.js';
import { keysOf } from '../support/search-fixtures.js';


/**
 * `_search` rules re-checked against the product's documentation and official clients
 * (docs/decisions/0170, 0172): typo tolerance, `offset`, hybrid weight defaults, bounds that clamp
 * instead of refusing.
 */
describe('delivery search rules: typo tolerance, offset, weights, bounds', function () {
  this.timeout(120_000);
  let s: TestService;
  const keys: Record<string, string> = {};

  before(async () => {
    await preparedWordVectors(TEST_EMBEDDINGS_CACHE);
    s = await startTestService();
    const collection = await searchableCollection(
      s,
      'posts',
      [
        { key: 'title', type: 'string', searchable: true, vectorizable: true },
        { key: 'rank', type: 'integer' },
      ],
      'blog',
    );
    keys.bread = await publish(s, collection, { title: 'Baking bread with sourdough', rank: 1 });
    keys.breadth = await publish(s, collection, { title: 'The breadth of the river', rank: 2 });
    keys.garden = await publish(s, collection, { title: 'Growing tomatoes', rank: 3 });
    keys.extra = await publish(s, collection, { title: 'Extraordinary bread', rank: 4 });
  });
  after(() => s?.stop());

  const refused = async (body: unknown, field: string) => {
    const r = await search(s, 'blog/posts', body);
    expect(r.status, JSON.stringify(r.body)).to.equal(422);
    expect(r.body.error_code).to.equal('validation_error');
    expect(r.body.detail, JSON.stringify(r.body.detail)).to.have.property(field);
  };
  const found = async (body: unknown): Promise<string[]> => {
    const r = await search(s, 'blog/posts', body);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return keysOf(r.body);
  };

  describe('find_text.threshold is typo tolerance', () => {
    it('matches words within floor((1 - threshold) * length) edits (at most 2), the first letter kept', async () => {
      expect(await found({ find_text: { query: 'tomatos' } })).to.deep.equal([]);
      expect(await found({ find_text: { query: 'tomatos', threshold: 1 } })).to.deep.equal([]);
      expect(await found({ find_text: { query: 'tomatos', threshold: 0.8 } })).to.deep.equal([keys.garden]);
      expect(await found({ find_text: { query: 'sourdouhg', threshold: 0.8 } })).to.deep.equal([]);
      expect(await found({ find_text: { query: 'sourdouhg', threshold: 0.75 } })).to.deep.equal([keys.bread]);
      expect(await found({ find_text: { query: 'extrordinary', threshold: 0.9 } })).to.deep.equal([keys.extra]);
      expect(await found({ find_text: { query: 'vomatoes', threshold: 0.5 } })).to.deep.equal([]);
    });

    it('is not prefix matching: a word does not match the longer words it starts', async () => {
      expect(await found({ find_text: { query: 'tomato', threshold: 0.8 } })).to.deep.equal([]);
      expect(await found({ find_text: { query: 'bread', threshold: 0.8 } })).to.have.members([keys.bread, keys.extra]);
      expect(await found({ find_text: { query: 'bread', threshold: 0.6 } })).to.have.members([keys.bread, keys.extra, keys.breadth]);
    });

    it('leaves find_phrase exact', async () => {
      await refused({ find_phrase: { query: 'baking bred', threshold: 0.5 } }, 'find_phrase.threshold');
      expect(await found({ find_phrase: { query: 'baking bred' } })).to.deep.equal([]);
    });
  });

  describe('offset (sent by the product SDKs)', () => {
    it('skips ranked results before the first page; the cursors carry on from there', async () => {
      const body = { find_text: { query: 'bread river tomatoes' }, sort: ['rank'] };
      const all = await found(body);
      expect(all).to.deep.equal([keys.bread, keys.breadth, keys.garden, keys.extra]);
      const page = await search(s, 'blog/posts', { ...body, offset: 1, limit: 2 });
      expect(keysOf(page.body)).to.deep.equal([keys.breadth, keys.garden]);
      expect(keysOf((await follow(page.body.next, { ...body, offset: 1, limit: 2 })).body)).to.deep.equal([keys.extra]);
      expect(keysOf((await follow(page.body.previous, { ...body, offset: 1, limit: 2 })).body)).to.deep.equal([keys.bread]);
      expect(await found({ ...body, offset: 4 })).to.deep.equal([]);
    });

    it('skips listed documents when nothing is ranked', async () => {
      const page = await search(s, 'blog/posts', { sort: ['rank'], offset: 2, limit: 1 });
      expect(keysOf(page.body)).to.deep.equal([keys.garden]);
      expect(keysOf((await follow(page.body.next, { sort: ['rank'], offset: 2, limit: 1 })).body)).to.deep.equal([keys.extra]);
      expect(keysOf((await follow(page.body.previous, { sort: ['rank'], offset: 2, limit: 1 })).body)).to.deep.equal([keys.breadth]);
    });

    it('is an integer from 0 to 1000', async () => {
      await refused({ offset: -1 }, 'offset');
      await refused({ offset: 1.5 }, 'offset');
      await refused({ offset: 1001 }, 'offset');
      await refused({ offset: '1' }, 'offset');
    });
  });

  describe('hybrid_config weights', () => {
    const hybrid = { search_mode: 'hybrid', find_text: { query: 'bread' }, vector_search: { query: 'baking bread' } };

    it('default to 0.6 and 0.4 each: one weight sent alone must sum to 1 with the other default', async () => {
      expect(await found({ ...hybrid, hybrid_config: { vector_weight: 0.6 } })).to.include(keys.bread);
      expect(await found({ ...hybrid, hybrid_config: { text_weight: 0.4, rerank_results: false } })).to.include(keys.bread);
      await refused({ ...hybrid, hybrid_config: { vector_weight: 0.5 } }, 'hybrid_config');
      await refused({ ...hybrid, hybrid_config: { text_weight: 0.5 } }, 'hybrid_config');
    });

    it('sum to 1 within 1e-6, as the SDKs check', async () => {
      expect(await found({ ...hybrid, hybrid_config: { vector_weight: 0.333333, text_weight: 0.666667 } })).to.include(keys.bread);
      await refused({ ...hybrid, hybrid_config: { vector_weight: 0.33, text_weight: 0.66 } }, 'hybrid_config');
    });
  });

  describe('vector_search.threshold', () => {
    it('is read as similarity_threshold (one product page names it so), not both', async () => {
      const vector = { search_mode: 'vector', vector_search: { query: 'baking bread' } };
      expect(await found({ ...vector, vector_search: { ...vector.vector_search, threshold: 0.9999 } })).to.deep.equal([]);
      expect(await found({ ...vector, vector_search: { ...vector.vector_search, threshold: 0 } })).to.include(keys.bread);
      await refused({ ...vector, vector_search: { ...vector.vector_search, threshold: 0.5, similarity_threshold: 0.5 } }, 'vector_search.threshold');
      await refused({ ...vector, vector_search: { ...vector.vector_search, threshold: 2 } }, 'vector_search.threshold');
    });
  });

  describe('bounds the product documents only from below', () => {
    it('serves top_k and max_boost_results above 1000 as 1000, and any boost_factor above 0', async () => {
      expect(await found({ search_mode: 'vector', vector_search: { query: 'baking bread', top_k: 5000 } })).to.include(keys.bread);
      const boosted = { search_mode: 'vector_boosted', find_text: { query: 'bread' }, vector_search: { query: 'baking bread', top_k: 5000 } };
      expect(await found({ ...boosted, vector_boost_config: { boost_factor: 5000, max_boost_results: 5000 } })).to.have.members([keys.bread, keys.extra]);
      await refused({ ...boosted, vector_boost_config: { boost_factor: -1 } }, 'vector_boost_config.boost_factor');
    });
  });
});
