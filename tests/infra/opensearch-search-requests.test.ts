import { expect } from 'chai';
import { OpenSearchSearchIndex } from '../../infra/opensearch/search-index.js';
import { ALL_FIELDS } from '../../projections/search-entries.js';
import type { DeliveryDoc, SearchEntries } from '../../projections/ports.js';
import { expansionsPerWord, maxEdits } from '../../projections/typo-tolerance.js';
import { closeTerms } from '../../infra/sqlite/fuzzy-terms.js';
import { RecordingOpenSearch } from '../support/recording-opensearch.js';
import { searchDoc, vec } from '../support/search-fixtures.js';

/**
 * What the OpenSearch adapter sends for search, checked against the k-NN plugin's and the query
 * DSL's documented shapes with a client that records requests (no server here; the same adapter
 * runs the search contract suite against a server when OPENSEARCH_URL is set).
 */

const doc = (key: string, data?: Record<string, unknown> | null): DeliveryDoc => searchDoc('e', key, data);

describe('OpenSearch search requests (recorded)', () => {
  let fake: RecordingOpenSearch;
  let index: OpenSearchSearchIndex;
  beforeEach(() => {
    fake = new RecordingOpenSearch();
    index = new OpenSearchSearchIndex('http://127.0.0.1:1', { prefix: 'p', client: fake.asClient() });
  });
  afterEach(() => index.close());

  const entries: SearchEntries = {
    texts: [
      { field: 'title', locale: '', text: 'Red apple pie' },
      { field: 'body', locale: 'de', text: 'Roter Apfel' },
    ],
    vectors: [
      { field: 'title', locale: '', vector: vec(1, 0, 0) },
      { field: ALL_FIELDS, locale: '', vector: vec(0.6, 0.8, 0) },
    ],
  };
  const publish = (key: string, e: SearchEntries = entries) =>
    index.unitOfWork('t', '00000000000000000001', async (tx) => {
      await tx.index(doc(key));
      await tx.indexSearch('e', 'f', key, e);
    });

  it('creates a k-NN vectors index and the nested, folded full-text entries of the documents', async () => {
    await publish('a');
    const created = fake.of('indices.create');
    const docs = created.find((c) => c.index === 'p') as { body: { mappings: { properties: Record<string, unknown> }; settings: { analysis: { analyzer: Record<string, unknown>; tokenizer: Record<string, { pattern: string }> } } } };
    expect(docs.body.mappings.properties.search_texts).to.deep.equal({
      type: 'nested',
      properties: { field: { type: 'keyword' }, locale: { type: 'keyword' }, body: { type: 'text', analyzer: 'folded_text' } },
    });
    expect(docs.body.settings.analysis.analyzer.folded_text).to.deep.equal({ type: 'custom', tokenizer: 'letters_and_digits', filter: ['lowercase', 'asciifolding'] });
    const pattern = new RegExp(docs.body.settings.analysis.tokenizer.letters_and_digits!.pattern, 'u');
    expect("Don't stop—Crème brûlée, 2x".split(pattern)).to.deep.equal(['Don', 't', 'stop', 'Crème', 'brûlée', '2x']);
    const vectors = created.find((c) => c.index === 'p-vectors') as { body: { settings: unknown } };
    expect(vectors.body.settings).to.deep.equal({ index: { knn: true } });
    expect(fake.of('indices.putMapping')).to.deep.equal([
      {
        index: 'p-vectors',
        body: { properties: { v_3: { type: 'knn_vector', dimension: 3, method: { name: 'hnsw', space_type: 'cosinesimil', engine: 'lucene' } } } },
      },
    ]);
  });

  it('maps payload strings also as wildcard fields and asks the substring operators of them (docs/decisions/0338)', async () => {
    await publish('a');
    const docs = fake.of('indices.create').find((c) => c.index === 'p') as { body: { mappings: { properties: Record<string, { properties: Record<string, unknown> }> } } };
    const values = docs.body.mappings.properties.values!.properties;
    expect(values.s).to.deep.equal({ type: 'keyword', ignore_above: 8191, fields: { w: { type: 'wildcard' } } });
    expect(values.f).to.deep.equal({ type: 'keyword', normalizer: 'fold', ignore_above: 8191, fields: { w: { type: 'wildcard', normalizer: 'fold' } } });
    expect(docs.body.mappings.properties.items!.properties.s).to.deep.equal({ type: 'keyword', ignore_above: 8191 });
    const sent: string[] = [];
    for (const [op, value] of [['contains', 'a*b'], ['istartswith', 'ABC'], ['iendswith', 'Xy']] as const) {
      const before = fake.of('search').length;
      await index.query('e', 'f', { limit: 10, where: { kind: 'condition', field: { scope: 'data', path: ['title'] }, op, value }, sort: [] });
      sent.push(...fake.of('search').slice(before).map((request) => JSON.stringify(request)));
    }
    expect(sent.join()).to.contain('{"wildcard":{"values.s.w":{"value":"*a\\\\*b*"}}}');
    expect(sent.join()).to.contain('{"wildcard":{"values.f.w":{"value":"abc*"}}}');
    expect(sent.join()).to.contain('{"wildcard":{"values.f.w":{"value":"*xy"}}}');
  });

  it('writes a document with its texts and its vectors (one per field and locale) in one bulk request', async () => {
    await publish('a');
    const [bulk] = fake.of('bulk') as { body: Record<string, unknown>[]; refresh: string }[];
    expect(bulk!.refresh).to.equal('wait_for');
    const body = bulk!.body;
    expect(body[0]).to.deep.equal({ index: { _index: 'p', _id: 'e|f|a' } });
    expect((body[1] as { search_texts: unknown }).search_texts).to.deep.equal([
      { field: 'title', locale: '', body: 'Red apple pie' },
      { field: 'body', locale: 'de', body: 'Roter Apfel' },
    ]);
    expect(body.slice(2)).to.deep.equal([
      { index: { _index: 'p-vectors', _id: 'e|f|a|title|' } },
      { doc: 'e|f|a', env: 'e', folder: 'f', key: 'a', field: 'title', locale: '', bytes: 12, v_3: [1, 0, 0] },
      { index: { _index: 'p-vectors', _id: `e|f|a|${ALL_FIELDS}|` } },
      { doc: 'e|f|a', env: 'e', folder: 'f', key: 'a', field: ALL_FIELDS, locale: '', bytes: 0, v_3: [Math.fround(0.6), Math.fround(0.8), 0] },
    ]);
  });

  it('keeps a zero vector (no direction, refused by k-NN for cosine) without its knn_vector field', async () => {
    await publish('z', { texts: [], vectors: [{ field: 'title', locale: 'en', vector: vec(0, 0, 0) }] });
    const [bulk] = fake.of('bulk') as { body: Record<string, unknown>[] }[];
    expect(bulk!.body[3]).to.deep.equal({ doc: 'e|f|z', env: 'e', folder: 'f', key: 'z', field: 'title', locale: 'en', bytes: 12 });
  });

  it('drops the vectors of re-indexed, unpublished and removed documents, and of a removed collection', async () => {
    await publish('a');
    fake.calls.length = 0;
    await index.unitOfWork('t', '00000000000000000002', async (tx) => {
      await tx.index(doc('a', null));
      await tx.remove('e', 'f', 'b');
    });
    expect(fake.of('deleteByQuery')).to.deep.equal([{ index: 'p-vectors', refresh: true, conflicts: 'proceed', body: { query: { terms: { doc: ['e|f|a', 'e|f|b'] } } } }]);
    const [bulk] = fake.of('bulk') as { body: Record<string, unknown>[] }[];
    expect(bulk!.body).to.have.length(3);
    expect(bulk!.body[1]).to.not.have.property('search_texts');
    expect(bulk!.body[2]).to.deep.equal({ delete: { _index: 'p', _id: 'e|f|b' } });
    fake.calls.length = 0;
    await index.unitOfWork('t', '00000000000000000003', async (tx) => tx.removeFolder('e', 'f'));
    expect(fake.of('deleteByQuery')).to.deep.equal([
      { index: ['p', 'p-vectors'], refresh: true, conflicts: 'proceed', body: { query: { bool: { filter: [{ term: { env: 'e' } }, { term: { folder: 'f' } }] } } } },
    ]);
  });

  it('searches text with BM25 summed over the nested entries of the named fields and locale', async () => {
    fake.reply([
      { _score: 2.5, _source: { key: 'b' } },
      { _score: 1.25, _source: { key: 'a' } },
    ]);
    const hits = await index.searchText('e', 'f', { words: ['apple', 'pie'], fields: ['title', 'body'], locale: 'de', limit: 7 });
    expect(hits).to.deep.equal([
      { key: 'b', score: 2.5 },
      { key: 'a', score: 1.25 },
    ]);
    const [search] = fake.of('search');
    expect(search).to.deep.equal({
      index: 'p',
      body: {
        size: 7,
        track_total_hits: false,
        _source: ['key'],
        query: {
          bool: {
            filter: [{ term: { env: 'e' } }, { term: { folder: 'f' } }, { term: { published: true } }],
            must: [
              {
                nested: {
                  path: 'search_texts',
                  score_mode: 'sum',
                  query: {
                    bool: {
                      filter: [{ terms: { 'search_texts.field': ['title', 'body'] } }, { terms: { 'search_texts.locale': ['de', ''] } }],
                      must: [{ bool: { should: [{ match: { 'search_texts.body': { query: 'apple' } } }, { match: { 'search_texts.body': { query: 'pie' } } }], minimum_should_match: 1 } }],
                    },
                  },
                },
              },
            ],
          },
        },
        sort: [{ _score: { order: 'desc' } }, { key: { order: 'asc' } }],
      },
    });
  });

  it('gives each word of a long fuzzy query fewer expansions', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}x`);
    await index.searchText('e', 'f', { words, fields: ['title'], locale: null, limit: 10, threshold: 0.8 });
    const [search] = fake.of('search') as { body: { query: { bool: { must: { nested: { query: { bool: { must: { bool: { should: { match: Record<string, { max_expansions: number }> }[] } }[] } } } }[] } } } }[];
    const should = search!.body.query.bool.must[0]!.nested.query.bool.must[0]!.bool.should;
    expect(should).to.have.length(40);
    expect(should.map((c) => c.match['search_texts.body']!.max_expansions)).to.deep.equal(Array(40).fill(25));
  });

  it('matches phrases with match_phrase, and words with typos with a fuzzy match keeping the first letter', async () => {
    await index.searchText('e', 'f', { phrase: ['apple', 'pie'], fields: ['title'], locale: null, limit: 10 });
    await index.searchText('e', 'f', { words: ['tomatos', 'pie'], fields: ['title'], locale: null, limit: 10, threshold: 0.8 });
    const [phrase, fuzzy] = fake.of('search') as { body: { query: { bool: { must: { nested: { query: { bool: { filter: unknown[]; must: unknown[] } } } }[] } } } }[];
    const inner = (s: typeof phrase) => s!.body.query.bool.must[0]!.nested.query.bool;
    expect(inner(phrase).must).to.deep.equal([{ match_phrase: { 'search_texts.body': 'apple pie' } }]);
    expect(inner(phrase).filter).to.deep.equal([{ terms: { 'search_texts.field': ['title'] } }]);
    expect(inner(fuzzy).must).to.deep.equal([
      {
        bool: {
          should: [
            { match: { 'search_texts.body': { query: 'tomatos', fuzziness: 1, prefix_length: 1, max_expansions: 50, fuzzy_transpositions: false } } },
            { match: { 'search_texts.body': { query: 'pie' } } },
          ],
          minimum_should_match: 1,
        },
      },
    ]);
    expect(await index.searchText('e', 'f', { words: [], fields: ['title'], locale: null, limit: 10 })).to.deep.equal([]);
    expect(await index.searchText('e', 'f', { words: ['x'], fields: [], locale: null, limit: 10 })).to.deep.equal([]);
    expect(fake.of('search')).to.have.length(2);
  });

  it('asks k-NN per field with the scope as an efficient filter, and turns scores back into cosine distances', async () => {
    await publish('a');
    fake.reply([
      { _score: 1, _source: { key: 'a' } },
      { _score: 0.75, _source: { key: 'b' } },
    ]);
    fake.reply([{ _score: 0.9, _source: { key: 'b' } }]);
    const hits = await index.searchVectors('e', 'f', { vector: vec(1, 0, 0), fields: ['title', 'body'], locale: 'en', limit: 5 });
    expect(hits.map((h) => h.key)).to.deep.equal(['a', 'b']);
    expect(hits[0]!.score).to.be.closeTo(0, 1e-9);
    expect(hits[1]!.score).to.be.closeTo(0.2, 1e-9);
    const searches = fake.of('search');
    expect(searches[0]).to.deep.equal({
      index: 'p-vectors',
      body: {
        size: 10,
        track_total_hits: false,
        _source: ['key'],
        query: {
          knn: {
            v_3: {
              vector: [1, 0, 0],
              k: 10,
              filter: { bool: { filter: [{ term: { env: 'e' } }, { term: { folder: 'f' } }, { term: { field: 'title' } }, { terms: { locale: ['en', ''] } }] } },
            },
          },
        },
      },
    });
    expect((searches[1] as { body: { query: { knn: { v_3: { filter: { bool: { filter: unknown[] } } } } } } }).body.query.knn.v_3.filter.bool.filter[2]).to.deep.equal({ term: { field: 'body' } });
    expect(await index.searchVectors('e', 'f', { vector: vec(1, 0), fields: ['title'], locale: null, limit: 5 })).to.deep.equal([]);
    expect(fake.of('search')).to.have.length(2);
  });

  it('tries a failed start again on the next call', async () => {
    const client = fake.asClient();
    const getMapping = client.indices.getMapping.bind(client.indices);
    let failures = 1;
    (client.indices as unknown as { getMapping: unknown }).getMapping = async (params: never) => {
      if (failures-- > 0) throw new Error('connection refused');
      return getMapping(params);
    };
    const retried = new OpenSearchSearchIndex('http://127.0.0.1:1', { prefix: 'p', client });
    let failed: unknown = null;
    await retried.searchText('e', 'f', { words: ['a'], fields: ['title'], locale: null, limit: 1 }).catch((error: unknown) => (failed = error));
    expect(String(failed)).to.include('connection refused');
    expect(await retried.searchText('e', 'f', { words: ['a'], fields: ['title'], locale: null, limit: 1 })).to.deep.equal([]);
    expect(fake.of('indices.getMapping')).to.have.length(1);
  });

  it('sums the stored vector bytes of a document', async () => {
    fake.reply([], { bytes: { value: 812 } });
    expect(await index.vectorsSize('e', 'f', 'a')).to.equal(812);
    expect(fake.of('search')[0]).to.deep.equal({
      index: 'p-vectors',
      body: { size: 0, track_total_hits: false, query: { term: { doc: 'e|f|a' } }, aggs: { bytes: { sum: { field: 'bytes' } } } },
    });
  });
});

describe('typo tolerance (find_text.threshold)', () => {
  it('allows floor((1 - threshold) * length) edits per word, at most 2', () => {
    expect(maxEdits('tomatos', undefined)).to.equal(0);
    expect(maxEdits('tomatos', 1)).to.equal(0);
    expect(maxEdits('apple', 0.8)).to.equal(1);
    expect(maxEdits('tomatos', 0.8)).to.equal(1);
    expect(maxEdits('pie', 0.8)).to.equal(0);
    expect(maxEdits('pie', 0.5)).to.equal(1);
    expect(maxEdits('extraordinary', 0)).to.equal(2);
  });

  it('expands a word to at most 50 indexed words, fewer in long queries (1,000 in all, under the clause limit of Lucene)', () => {
    expect([1, 20, 40, 2000].map(expansionsPerWord)).to.deep.equal([50, 50, 25, 1]);
  });

  it('on SQLite, compares the word with the indexed terms of its initial, closest first', () => {
    const asked: string[][] = [];
    const vocabulary = (from: string, to: string) => {
      asked.push([from, to]);
      return ['tomato', 'tomatoes', 'tomatos', 'tomcat', 'tornado', 'tuna'];
    };
    expect(closeTerms('Tomatoe', 0.8, vocabulary, 50)).to.deep.equal(['tomatoe', 'tomato', 'tomatoes', 'tomatos']);
    expect(asked).to.deep.equal([['t', 'u']]);
    expect(closeTerms('tomatoe', 0.8, vocabulary, 2)).to.deep.equal(['tomatoe', 'tomato']);
    expect(closeTerms('tomatoe', 1, vocabulary, 50)).to.deep.equal(['tomatoe']);
    expect(asked).to.have.length(2);
  });
});
