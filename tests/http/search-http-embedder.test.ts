import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { v1 } from '../support/content.js';
import { publish, search, searchableCollection } from '../support/search.js';
import { startTestService, type TestService } from '../support/service.js';

/** A fake OpenAI-compatible model on 127.0.0.1: a text containing "cat" points one way, "car" another, anything else a third. */
function fakeModel(seen: string[][]): Promise<{ server: Server; url: string }> {
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const { input } = JSON.parse(raw) as { input: string[] };
    seen.push(input);
    const embed = (text: string) => (/cat/i.test(text) ? [1, 0.1, 0] : /car/i.test(text) ? [0, 1, 0.1] : [0.1, 0, 1]);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: input.map((text, index) => ({ index, embedding: embed(text) })) }));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` })));
}

describe('delivery search with an OpenAI-compatible embeddings endpoint (EMBEDDINGS_URL)', () => {
  let s: TestService;
  let model: { server: Server; url: string };
  const seen: string[][] = [];

  before(async () => {
    model = await fakeModel(seen);
    s = await startTestService({ EMBEDDINGS_URL: model.url, EMBEDDINGS_MODEL: 'fake-3d', EMBEDDINGS_API_KEY: 'sk-test' });
  });
  after(async () => {
    await s?.stop();
    model?.server.close();
  });

  it('embeds vectorizable fields on publish through the endpoint and searches with its vectors', async () => {
    const collection = await searchableCollection(s, 'pets', [{ key: 'title', type: 'string', vectorizable: true }], 'zoo');
    const cat = await publish(s, collection, { title: 'A sleepy cat' });
    const car = await publish(s, collection, { title: 'A red car' });
    expect(seen.flat()).to.include.members(['A sleepy cat', 'A red car']);
    const r = await search(s, 'zoo/pets', { search_mode: 'vector', vector_search: { query: 'kitten or cat', top_k: 1 } });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.results.map((x: { _sys: { key: string } }) => x._sys.key)).to.deep.equal([cat]);
    // One 3-dimension float32 embedding per resource.
    expect((await s.api('GET', v1(s, `/collections/${collection}/resources/${car}/`))).body.vectors_size).to.equal(12);
  });
});
