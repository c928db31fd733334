import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpEmbedder } from '../../infra/embeddings/http-embedder.js';

type Seen = { path: string; authorization: string | undefined; body: { model: string; input: string[] } };

/** A fake OpenAI-compatible endpoint on 127.0.0.1: the embedding of a text is [length, 0, 1], answered in reverse order. */
function fakeEmbeddings(seen: Seen[], status = 200): Promise<{ server: Server; url: string }> {
  const server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as Seen['body'];
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
    res.writeHead(status, { 'content-type': 'application/json' });
    if (status !== 200) return res.end(JSON.stringify({ error: { message: 'nope' } }));
    const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: [text.length, 0, 1] })).reverse();
    res.end(JSON.stringify({ object: 'list', data, model: body.model }));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` })));
}

describe('the OpenAI-compatible HTTP embedder', () => {
  const servers: Server[] = [];
  after(() => servers.forEach((s) => s.close()));

  it('posts the model and texts to {url}/embeddings with the key, in batches, and answers unit vectors in input order', async () => {
    const seen: Seen[] = [];
    const { server, url } = await fakeEmbeddings(seen);
    servers.push(server);
    const embedder = new HttpEmbedder({ url, model: 'test-model', apiKey: 'sk-test', batchSize: 2 });
    const vectors = await embedder.embed(['abc', 'a', 'abcd']);
    expect(seen.map((s) => [s.path, s.authorization, s.body.model, s.body.input])).to.deep.equal([
      ['/v1/embeddings', 'Bearer sk-test', 'test-model', ['abc', 'a']],
      ['/v1/embeddings', 'Bearer sk-test', 'test-model', ['abcd']],
    ]);
    expect(vectors.map((v) => Array.from(v).map((x) => Number(x.toFixed(4))))).to.deep.equal([
      [0.9487, 0, 0.3162],
      [0.7071, 0, 0.7071],
      [0.9701, 0, 0.2425],
    ]);
  });

  it('fails with the status when the endpoint refuses', async () => {
    const { server, url } = await fakeEmbeddings([], 401);
    servers.push(server);
    let error: unknown = null;
    await new HttpEmbedder({ url, model: 'm' }).embed(['x']).catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/answered 401/);
  });
});
