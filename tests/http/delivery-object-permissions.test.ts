import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { v1 } from '../support/content.js';
import { deliveryFixture, keysOf, type DeliveryFixture } from '../support/delivery-fixture.js';
import { startTestService, type Reply, type TestService } from '../support/service.js';

type Key = { key: string; public_key: string; secret_key: string };
type ToolText = { content: { type: string; text: string }[]; isError?: boolean };
const parsed = (result: unknown): any => JSON.parse((result as ToolText).content[0]!.text); // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A delivery role permission without all_objects limits a key to exactly the listed objects
 * (docs/decisions/0061, 0161): `flux-apis` to the listed APIs, `collections` to the listed
 * collections, on every read endpoint, the agent endpoint's tools and writes.
 */
describe('delivery keys limited to listed objects', function () {
  this.timeout(60_000);
  let s: TestService;
  let f: DeliveryFixture;
  let rwApi: string;
  /** No role: reads everything. */
  let full: Key;
  /** Every API, but only the articles collection (read, create, update). */
  let articlesOnly: Key;
  /** Only the rw API (read, create), every collection. */
  let rwOnly: Key;
  const clients: Client[] = [];
  const simple = (k: Key) => ({ authorization: `Simple ${k.public_key}:${k.secret_key}` });
  const send = async (method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Reply> => {
    const response = await fetch(`${s.delivery}/${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
  };
  const expectDenied = (r: Reply) => {
    expect(r.status, JSON.stringify(r.body)).to.equal(403);
    expect(r.body.error_code).to.equal('access_denied');
  };
  const role = async (permissions: object[]): Promise<string> => {
    const r = (await s.api('POST', v1(s, '/permissions/delivery-api/roles/'), { name: 'limited' })).body.key as string;
    expect((await s.api('POST', v1(s, `/permissions/delivery-api/roles/${r}/permissions/batch/`), permissions)).status).to.equal(200);
    return r;
  };
  const newKey = async (roleKey: string | null): Promise<Key> => (await s.api('POST', v1(s, '/permissions/delivery-api/api-keys/'), { role: roleKey })).body;

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    f = await deliveryFixture(s);
    rwApi = (await s.api('POST', v1(s, '/api/'), { name: 'rw', prefix: 'rw' })).body.key;
    for (const folder of [f.articles, f.authors]) {
      const c = await s.api('POST', v1(s, `/api/${rwApi}/collections/`), { folder, allowed_methods: ['get_many', 'get_one', 'create', 'update'] });
      expect(c.status, JSON.stringify(c.body)).to.equal(201);
    }
    full = await newKey(null);
    articlesOnly = await newKey(await role([
      { content_type: 'flux-apis', actions: ['read', 'create', 'update'], all_objects: true },
      { content_type: 'collections', actions: ['read', 'create', 'update'], all_objects: false, objects: [f.articles] },
    ]));
    rwOnly = await newKey(await role([{ content_type: 'flux-apis', actions: ['read', 'create'], all_objects: false, objects: [rwApi] }]));
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await s?.stop();
  });

  it('lists, gets, searches and describes the listed collection only', async () => {
    const h = simple(articlesOnly);
    expect((await send('GET', 'site/articles/', h)).status).to.equal(200);
    expectDenied(await send('GET', 'site/authors/', h));
    expect((await send('GET', `site/articles/${f.a[0]}/`, h)).status).to.equal(200);
    expectDenied(await send('GET', `site/authors/${f.author}/`, h));
    const search = await send('POST', 'site/articles/_search', h, { find_text: { query: 'hello' } });
    expect(search.status, JSON.stringify(search.body)).to.equal(200);
    expect(keysOf(search)).to.include(f.a[0]);
    expectDenied(await send('POST', 'site/authors/_search', h, {}));
    expect((await send('GET', 'site/articles/_schema', h)).status).to.equal(200);
    expectDenied(await send('GET', 'site/authors/_schema', h));
    expectDenied(await send('GET', `site/companies/${f.company}/`, h));
    // The key without a role reads them all.
    for (const path of ['site/authors/', `site/authors/${f.author}/`, 'site/authors/_schema']) expect((await send('GET', path, simple(full))).status, path).to.equal(200);
  });

  it('shows in _router only the routes of collections the key may read', async () => {
    const mine = await send('GET', 'site/_router', simple(articlesOnly));
    expect(mine.status).to.equal(200);
    const paths = (mine.body.routes as { path: string }[]).map((r) => r.path);
    expect(paths.length).to.be.greaterThan(0);
    expect(paths.every((p) => p.startsWith('/site/articles/'))).to.equal(true);
    const all = await send('GET', 'site/_router', simple(full));
    const anonymous = await send('GET', 'site/_router', {});
    expect(all.body).to.deep.equal(anonymous.body);
    expect((all.body.routes as { path: string }[]).some((r) => r.path.startsWith('/site/authors/'))).to.equal(true);
    expect(mine.headers.get('etag')).to.not.equal(all.headers.get('etag'));
  });

  it('leaves references into collections the key may not read unpopulated, and refuses joins into them', async () => {
    const path = `site/articles/${f.a[0]}/?populate=author`;
    const populated = await send('GET', path, simple(full));
    expect(populated.body.data.author._sys.key).to.equal(f.author);
    const mine = await send('GET', path, simple(articlesOnly));
    expect(mine.status).to.equal(200);
    expect(mine.body.data.author).to.equal(`${f.authors}::${f.author}`);
    const list = await send('GET', 'site/articles/?populate=author', simple(articlesOnly));
    expect((list.body.results as { data: { author?: unknown } }[]).every((r) => r.data.author === undefined || typeof r.data.author === 'string')).to.equal(true);
    const searched = await send('POST', 'site/articles/_search?populate=author', simple(articlesOnly), { where: { $: { all_of: [{ 'views__eq': 10 }] } } });
    expect(searched.status, JSON.stringify(searched.body)).to.equal(200);
    expect(searched.body.results[0].data.author).to.equal(`${f.authors}::${f.author}`);
    const join = { join: { as: { w: 'authors' }, relations: [{ source: '$', target: 'w', source_field: 'author' }] }, where: { w: { all_of: [{ name__eq: 'Ann' }] } } };
    expectDenied(await send('POST', 'site/articles/_search', simple(articlesOnly), join));
    const joined = await send('POST', 'site/articles/_search', simple(full), join);
    expect(joined.status, JSON.stringify(joined.body)).to.equal(200);
    expect(keysOf(joined)).to.deep.equal([f.a[0]]);
  });

  it('limits writes to the listed collection and the listed API', async () => {
    const created = await send('POST', 'rw/articles/', simple(articlesOnly), { data: { title: { en: 'Mine' } } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expectDenied(await send('POST', 'rw/authors/', simple(articlesOnly), { data: { name: 'Bob' } }));
    expect((await send('PUT', `rw/articles/${created.body.resource_key}/`, simple(articlesOnly), { data: { title: { en: 'Mine again' } } })).status).to.equal(200);
    expectDenied(await send('PUT', `rw/authors/${f.author}/`, simple(articlesOnly), { data: { name: 'Bob' } }));
    // Nothing was written by the refusals.
    expect((await send('GET', `rw/authors/${f.author}/`, simple(full))).body.data.name).to.equal('Ann');

    expect((await send('GET', 'rw/authors/', simple(rwOnly))).status).to.equal(200);
    expect((await send('POST', 'rw/authors/', simple(rwOnly), { data: { name: 'Cy' } })).status).to.equal(201);
    const elsewhere = await send('GET', 'site/articles/', simple(rwOnly));
    expect(elsewhere.status).to.equal(401);
    expect(elsewhere.body.error_code).to.equal('authentication_required');
    expect((await send('POST', 'rw/authors/', {}, { data: { name: 'Anonymous' } })).status).to.equal(401);
  });

  it('gives the agent endpoint the same limits: discover, tool descriptions, reads and writes', async () => {
    const client = new Client({ name: 'limited-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.delivery}/rw/_mcp`), { requestInit: { headers: simple(articlesOnly) } }));
    clients.push(client);
    const discovered = parsed(await client.callTool({ name: 'discover', arguments: {} }));
    expect(discovered.collections.map((c: { folder: string }) => c.folder)).to.deep.equal([f.articles]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.include.members(['create_record', 'update_record']);
    for (const tool of tools) expect(tool.description, tool.name).to.not.include('- authors');
    expect(tools.find((t) => t.name === 'get_record')!.description).to.include('- articles');
    expect(parsed(await client.callTool({ name: 'query_records', arguments: { collection_path: 'articles' } })).results.length).to.be.greaterThan(0);
    for (const [name, args] of [
      ['get_record', { collection_path: 'authors', key: f.author }],
      ['query_records', { collection_path: 'authors' }],
      ['search_records', { collection_path: 'authors' }],
      ['get_schema', { collection_path: 'authors' }],
      ['create_record', { collection_path: 'authors', data: { name: 'Agent' } }],
      ['update_record', { collection_path: 'authors', key: f.author, data: { name: 'Agent' } }],
    ] as const) {
      const refused = await client.callTool({ name, arguments: args });
      expect((refused as ToolText).isError, name).to.equal(true);
      expect(parsed(refused), name).to.deep.include({ status: 403, error_code: 'access_denied' });
    }
    const agentRead = parsed(await client.callTool({ name: 'get_record', arguments: { collection_path: 'articles', key: f.a[0], populate: 'author' } }));
    expect(agentRead.data.author).to.equal(`${f.authors}::${f.author}`);
    expect(parsed(await client.callTool({ name: 'create_record', arguments: { collection_path: 'articles', data: { title: { en: 'By agent' } } } }))).to.include({ published: true });
    // A key limited to the rw API has no agent endpoint on the site API.
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { ...simple(rwOnly), accept: 'application/json, text/event-stream' };
    const elsewhere = await send('POST', 'site/_mcp', headers, initialize);
    expect(elsewhere.status).to.equal(401);
    expect(elsewhere.body.error_code).to.equal('authentication_required');
    expect((await fetch(`${s.delivery}/rw/_mcp`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(initialize) })).status).to.equal(200);
  });
});
