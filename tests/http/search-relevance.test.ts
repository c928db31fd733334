import { expect } from 'chai';
import { preparedWordVectors } from '../../infra/embeddings/static-embedder.js';
import { TEST_EMBEDDINGS_CACHE } from '../support/embeddings.js';
import { DOCUMENTS, PARAPHRASE_QUERIES, TEXT_QUERIES, type RelevanceQuery } from '../support/relevance-set.js';
import { publish, search, searchableCollection } from '../support/search.js';
import { startTestService, type TestService } from '../support/service.js';

const words = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

describe('search relevance: each query ranks its document in the top 3', function () {
  this.timeout(120_000);
  let s: TestService;
  const keys = new Map<string, string>();
  const nameOf = (key: string) => [...keys].find(([, k]) => k === key)?.[0] ?? key;

  const top3 = async (body: unknown): Promise<string[]> => {
    const r = await search(s, 'kb/guides', { ...(body as object), limit: 3 });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.results.map((item: { _sys: { key: string } }) => nameOf(item._sys.key));
  };
  const hits = async (queries: readonly RelevanceQuery[], body: (q: RelevanceQuery) => unknown) => {
    const misses: string[] = [];
    for (const q of queries) {
      const found = await top3(body(q));
      if (!found.includes(q.target)) misses.push(`${q.query} -> ${found.join(', ')} (wanted ${q.target})`);
    }
    return misses;
  };

  before(async () => {
    await preparedWordVectors(TEST_EMBEDDINGS_CACHE);
    s = await startTestService();
    const collection = await searchableCollection(
      s,
      'guides',
      [
        { key: 'title', type: 'string', searchable: true, vectorizable: true },
        { key: 'body', type: 'text', searchable: true, vectorizable: true },
      ],
      'kb',
    );
    for (const [name, doc] of Object.entries(DOCUMENTS)) keys.set(name, await publish(s, collection, doc));
  });
  after(() => s?.stop());

  it('the paraphrase queries share no word with their documents', () => {
    for (const q of PARAPHRASE_QUERIES) {
      const doc = DOCUMENTS[q.target]!;
      const shared = [...words(q.query)].filter((w) => words(`${doc.title} ${doc.body}`).has(w));
      expect(shared, q.query).to.deep.equal([]);
    }
  });

  it('text: keyword queries', async () => {
    expect(await hits(TEXT_QUERIES, (q) => ({ find_text: { query: q.query } }))).to.deep.equal([]);
  });

  it('vector: keyword queries and paraphrases', async () => {
    const body = (q: RelevanceQuery) => ({ search_mode: 'vector', vector_search: { query: q.query } });
    expect(await hits([...TEXT_QUERIES, ...PARAPHRASE_QUERIES], body)).to.deep.equal([]);
  });

  it('hybrid: keyword queries and paraphrases', async () => {
    const body = (q: RelevanceQuery) => ({ search_mode: 'hybrid', find_text: { query: q.query }, vector_search: { query: q.query } });
    expect(await hits([...TEXT_QUERIES, ...PARAPHRASE_QUERIES], body)).to.deep.equal([]);
  });

  it('hybrid beats text alone on paraphrases: text finds none of their documents in its top 3', async () => {
    const textMisses = await hits(PARAPHRASE_QUERIES, (q) => ({ find_text: { query: q.query } }));
    expect(textMisses).to.have.length(PARAPHRASE_QUERIES.length);
    const hybridMisses = await hits(PARAPHRASE_QUERIES, (q) => ({ search_mode: 'hybrid', find_text: { query: q.query }, vector_search: { query: q.query } }));
    expect(hybridMisses).to.deep.equal([]);
  });
});
