import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

type ToolText = { content: { type: string; text: string }[]; isError?: boolean };
const json = async (response: Response): Promise<any> => response.json(); // eslint-disable-line @typescript-eslint/no-explicit-any
const parsed = (result: unknown): any => JSON.parse((result as ToolText).content[0]!.text); // eslint-disable-line @typescript-eslint/no-explicit-any

const LONG = 'The quick brown fox jumps over the lazy dog, again and again.';

/** A collection with a required `title` string and a `body` text field, published. */
async function articles(s: TestService, alias: string): Promise<string> {
  const c = await s.api('POST', v1(s, '/collections/tree/'), { name: `The ${alias}`, alias });
  const key = c.body.key as string;
  const v = await s.api('POST', v1(s, `/collections/${key}/model/versions/`), {});
  for (const field of [{ key: 'title', type: 'string', required: true }, { key: 'body', type: 'text' }]) {
    expect((await s.api('POST', v1(s, `/collections/${key}/model/versions/${v.body.key}/schema/tree/`), field)).status).to.equal(201);
  }
  expect((await s.api('POST', v1(s, `/collections/${key}/model/versions/${v.body.key}/publish/`), {})).status).to.equal(200);
  return key;
}

describe('HTTP: the agent endpoint {prefix}/_mcp', function () {
  this.timeout(60_000);
  let s: TestService;
  let api: string;
  let news: string;
  let keysOnly: string;
  let record: string;
  const clients: Client[] = [];

  const mcpUrl = (prefix = 'agents') => new URL(`${s.delivery}/${prefix}/_mcp`);
  async function connect(prefix = 'agents'): Promise<Client> {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    // One request id for the agent's requests and the REST ones they are compared with (error messages end with it).
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(prefix), { requestInit: { headers: { 'x-request-id': 'mcp-test' } } }));
    clients.push(client);
    return client;
  }
  const rest = async (method: string, path: string, body?: unknown) => {
    const headers = { 'x-request-id': 'mcp-test', ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const response = await fetch(`${s.delivery}/agents/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };

  before(async () => {
    s = await startTestService();
    news = await articles(s, 'news');
    keysOnly = await articles(s, 'memos');
    const a = await s.api('POST', v1(s, '/api/'), { name: 'Agents', prefix: 'agents', cors_origins: ['*'] });
    api = a.body.key;
    const connect1 = await s.api('POST', v1(s, `/api/${api}/collections/`), {
      folder: news,
      allowed_methods: ['get_many', 'get_one'],
      description_get_many: 'Lists the news of the day.',
      description_get_one: 'Reads one news item.',
      mcp_truncate_text: 10,
    });
    expect(connect1.status, JSON.stringify(connect1.body)).to.equal(201);
    expect((await s.api('POST', v1(s, `/api/${api}/collections/`), { folder: keysOnly, allowed_methods: ['get_many'] })).status).to.equal(201);
    const r = await s.api('POST', v1(s, `/collections/${news}/resources/`), { data: { title: 'Hello', body: LONG } });
    record = r.body.key;
    await s.api('POST', v1(s, `/collections/${news}/resources/`), { data: { title: 'Short', body: 'tiny' } });
    await s.api('POST', v1(s, `/collections/${keysOnly}/resources/`), { data: { title: 'Memo', body: LONG } });
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await s.stop();
  });

  it('initializes a session with the SDK client and lists the five read tools for an anonymous caller', async () => {
    const client = await connect();
    expect(client.getServerVersion()).to.deep.include({ name: 'cms-delivery-mcp' });
    expect(client.getServerCapabilities()).to.have.property('tools');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.deep.equal(['discover', 'get_schema', 'get_record', 'query_records', 'search_records']);
    const query = tools.find((t) => t.name === 'query_records');
    expect(query?.description).to.include('news (The news): Lists the news of the day.');
    expect(tools.find((t) => t.name === 'get_record')?.description).to.include('Reads one news item.');
    expect(query?.inputSchema.required).to.deep.equal(['collection_path']);
  });

  it('discover lists the reachable collections with their paths, actions and descriptions', async () => {
    const client = await connect();
    const body = parsed(await client.callTool({ name: 'discover', arguments: {} }));
    expect(body.api).to.equal('agents');
    expect(body.collections).to.have.length(2);
    const item = body.collections.find((c: { folder: string }) => c.folder === news);
    expect(item).to.deep.include({ name: 'The news', alias: 'news', path: 'news', actions: ['get_many', 'get_one'] });
    expect(item.descriptions.get_many).to.equal('Lists the news of the day.');
  });

  it('get_record answers what GET {prefix}/{path}/{key}/ answers, in full', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'get_record', arguments: { collection_path: 'news', key: record } });
    expect((result as ToolText).isError).to.not.equal(true);
    const body = parsed(result);
    expect(body).to.deep.equal((await rest('GET', `news/${record}/`)).body);
    expect(body.data.body).to.equal(LONG);
  });

  it('query_records cuts text fields at the connection mcp_truncate_text and flags what it cut', async () => {
    const client = await connect();
    const body = parsed(await client.callTool({ name: 'query_records', arguments: { collection_path: 'news', limit: 10 } }));
    expect(body.truncate_text).to.equal(10);
    const long = body.results.find((r: { _sys: { key: string } }) => r._sys.key === record);
    expect(long.data.body).to.equal(LONG.slice(0, 10));
    expect(long.data.title).to.equal('Hello');
    expect(long.truncated_fields).to.deep.equal(['body']);
    const short = body.results.find((r: { _sys: { key: string } }) => r._sys.key !== record);
    expect(short.data.body).to.equal('tiny');
    expect(short).to.not.have.property('truncated_fields');
  });

  it('query_records on a connection without get_one gives keys only and cuts nothing', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'query_records', arguments: { collection_path: 'memos' } });
    const body = parsed(result);
    expect(body).to.deep.equal((await rest('GET', 'memos/')).body);
    expect(body.results[0]).to.not.have.property('data');
    expect(body).to.not.have.property('truncate_text');
  });

  it('get_schema and search_records answer exactly what their REST endpoints answer', async () => {
    const client = await connect();
    const schema = await client.callTool({ name: 'get_schema', arguments: { collection_path: 'news' } });
    const schemaRest = await rest('GET', 'news/_schema');
    if (schemaRest.status < 400) expect(parsed(schema)).to.deep.equal(schemaRest.body);
    else expect(parsed(schema)).to.deep.equal({ status: schemaRest.status, ...schemaRest.body });
    const search = await client.callTool({ name: 'search_records', arguments: { collection_path: 'memos', find_text: { query: 'memo' } } });
    const searchRest = await rest('POST', 'memos/_search', { find_text: { query: 'memo' } });
    expect((search as ToolText).isError === true).to.equal(searchRest.status >= 400);
    if (searchRest.status >= 400) expect(parsed(search)).to.deep.equal({ status: searchRest.status, ...searchRest.body });
    else expect(parsed(search).results).to.deep.equal(searchRest.body.results);
  });

  it('refuses what REST refuses, as tool errors with the status and error envelope', async () => {
    const client = await connect();
    const denied = await client.callTool({ name: 'get_record', arguments: { collection_path: 'memos', key: 'anything' } });
    expect((denied as ToolText).isError).to.equal(true);
    expect(parsed(denied)).to.deep.include({ status: 403, error_code: 'permission_denied' });
    const unknown = await client.callTool({ name: 'query_records', arguments: { collection_path: 'nowhere' } });
    expect(parsed(unknown)).to.deep.include({ status: 404, error_code: 'collection_not_found' });
    const missing = await client.callTool({ name: 'get_record', arguments: { collection_path: 'news', key: 'missing' } });
    expect(parsed(missing)).to.deep.include({ status: 404, error_code: 'resource_not_found' });
  });

  it('refuses a write from an anonymous caller, and does not list write tools to it', async () => {
    const client = await connect();
    const created = await client.callTool({ name: 'create_record', arguments: { collection_path: 'news', data: { title: 'x' } } });
    expect((created as ToolText).isError).to.equal(true);
    const restAnswer = await rest('POST', 'news/', { data: { title: 'x' } });
    expect(parsed(created)).to.deep.equal({ status: restAnswer.status, ...restAnswer.body });
    expect(restAnswer.status).to.be.oneOf([401, 404]);
    const listed = (await s.api('GET', v1(s, `/collections/${news}/resources/`))).body.count;
    expect(listed).to.equal(2);
  });

  it('answers bad arguments and unknown tools with JSON-RPC invalid-params errors', async () => {
    const client = await connect();
    for (const args of [{}, { collection_path: '../etc' }, { collection_path: 'news/_search' }, { collection_path: 'news', limit: 0 }, { collection_path: 'news', extra: 1 }]) {
      let error: unknown;
      try {
        await client.callTool({ name: 'query_records', arguments: args });
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(args)).to.have.property('code', -32602);
    }
    let unknownTool: unknown;
    try {
      await client.callTool({ name: 'drop_tables', arguments: {} });
    } catch (e) {
      unknownTool = e;
    }
    expect(unknownTool).to.have.property('code', -32602);
  });

  it('answers the GET probe, refuses an event stream, and ends sessions with DELETE (204, idempotent)', async () => {
    const probe = await fetch(mcpUrl());
    expect(probe.status).to.equal(200);
    expect(await json(probe)).to.deep.equal({ status: 'ok', protocol: 'mcp-streamable-http', api: 'agents' });
    const stream = await fetch(mcpUrl(), { headers: { accept: 'text/event-stream' } });
    expect(stream.status).to.equal(405);
    const init = await fetch(mcpUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    expect(init.status).to.equal(200);
    const session = init.headers.get('mcp-session-id');
    expect(session).to.match(/^[0-9a-f-]{36}$/);
    expect((await json(init)).result.protocolVersion).to.equal('2025-03-26');
    const call = (id: string | null) =>
      fetch(mcpUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-03-26', ...(id ? { 'mcp-session-id': id } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
    expect((await call(session)).status).to.equal(200);
    expect((await call(null)).status).to.equal(400);
    expect((await fetch(mcpUrl(), { method: 'DELETE', headers: { 'mcp-session-id': session as string } })).status).to.equal(204);
    const gone = await call(session);
    expect(gone.status).to.equal(404);
    expect((await json(gone)).error.code).to.equal(-32001);
    expect((await fetch(mcpUrl(), { method: 'DELETE', headers: { 'mcp-session-id': session as string } })).status).to.equal(204);
    expect((await fetch(mcpUrl(), { method: 'DELETE' })).status).to.equal(204);
  });

  it('sends no CORS headers on _mcp, though the API allows every origin', async () => {
    const probe = await fetch(mcpUrl(), { headers: { origin: 'https://example.org' } });
    expect(probe.headers.get('access-control-allow-origin')).to.equal(null);
    const list = await fetch(`${s.delivery}/agents/news/`, { headers: { origin: 'https://example.org' } });
    expect(list.headers.get('access-control-allow-origin')).to.equal('*');
  });

  it('keeps a session to the prefix it was opened on', async () => {
    const other = await s.api('POST', v1(s, '/api/'), { name: 'Other', prefix: 'other' });
    expect(other.status).to.equal(201);
    const init = await fetch(mcpUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    const session = init.headers.get('mcp-session-id') as string;
    const elsewhere = await fetch(mcpUrl('other'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(elsewhere.status).to.equal(404);
  });

  it('is hidden (404 route_not_found) when mcp_enabled is false, and asks for credentials on an auth-required API', async () => {
    const hidden = await s.api('POST', v1(s, '/api/'), { name: 'Hidden', prefix: 'hidden', mcp_enabled: false, is_auth_required: true });
    expect(hidden.status).to.equal(201);
    const answer = await fetch(mcpUrl('hidden'));
    expect(answer.status, await answer.clone().text()).to.equal(404);
    expect((await json(answer)).error_code).to.equal('route_not_found');
    const locked = await s.api('POST', v1(s, '/api/'), { name: 'Locked', prefix: 'locked', is_auth_required: true });
    expect(locked.status).to.equal(201);
    const refused = await fetch(mcpUrl('locked'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    expect(refused.status).to.equal(401);
    expect(refused.headers.get('www-authenticate')).to.equal('Simple realm="delivery-api", Secure realm="delivery-api"');
    expect((await json(refused)).error_code).to.equal('authentication_required');
    const patched = await s.api('PATCH', v1(s, `/api/${api}/`), { mcp_enabled: false });
    expect(patched.status).to.equal(200);
    expect((await fetch(mcpUrl())).status).to.equal(404);
    expect((await s.api('PATCH', v1(s, `/api/${api}/`), { mcp_enabled: true })).status).to.equal(200);
  });
});

describe('HTTP: the agent endpoint with delivery keys', function () {
  this.timeout(60_000);
  let s: TestService;
  let api: string;
  let folder: string;
  const clients: Client[] = [];
  type Key = { key: string; public_key: string; secret_key: string };

  const url = () => new URL(`${s.delivery}/vault/_mcp`);
  const roleWith = async (actions: string[]): Promise<string> => {
    const role = (await s.api('POST', `/v1/${s.env}/permissions/delivery-api/roles/`, { name: actions.join('+') })).body.key;
    const permission = { content_type: 'flux-apis', actions, all_objects: true, objects: [] };
    expect((await s.api('POST', `/v1/${s.env}/permissions/delivery-api/roles/${role}/permissions/`, permission)).status).to.equal(201);
    return role;
  };
  const keyWith = async (role: string | null): Promise<Key> => (await s.api('POST', `/v1/${s.env}/permissions/delivery-api/api-keys/`, { role })).body;
  /** An SDK client that signs every request with the Secure scheme, as the product's client libraries do. */
  async function secureClient(key: Key): Promise<Client> {
    const { secureHeaders } = await import('../support/secure-signing.js');
    const signed = async (target: string | URL, init?: RequestInit): Promise<Response> => {
      const body = typeof init?.body === 'string' ? init.body : '';
      const headers = new Headers(init?.headers);
      for (const [name, value] of Object.entries(secureHeaders(key.public_key, key.secret_key, String(target), body))) headers.set(name, value);
      return fetch(target, { ...init, headers });
    };
    const client = new Client({ name: 'secure-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url(), { fetch: signed }));
    clients.push(client);
    return client;
  }
  async function simpleClient(key: Key): Promise<Client> {
    const client = new Client({ name: 'simple-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url(), { requestInit: { headers: { authorization: `Simple ${key.public_key}:${key.secret_key}` } } }));
    clients.push(client);
    return client;
  }

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    folder = await articles(s, 'notes');
    api = (await s.api('POST', v1(s, '/api/'), { name: 'Vault', prefix: 'vault', is_auth_required: true })).body.key;
    expect((await s.api('POST', v1(s, `/api/${api}/collections/`), { folder, allowed_methods: ['get_many', 'get_one', 'create', 'update'] })).status).to.equal(201);
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await s.stop();
  });

  it('refuses an anonymous session on an auth-required API with 401', async () => {
    const client = new Client({ name: 'anonymous', version: '1.0.0' });
    let error: unknown;
    try {
      await client.connect(new StreamableHTTPClientTransport(url()));
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.match(/authentication_required|401/);
  });

  it('lists the write tools to a key whose role may write, and creates and updates through them with Secure signatures', async () => {
    const writer = await keyWith(await roleWith(['read', 'create', 'update']));
    const client = await secureClient(writer);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.include.members(['create_record', 'update_record']);
    const created = parsed(await client.callTool({ name: 'create_record', arguments: { collection_path: 'notes', data: { title: 'From an agent', body: 'words' } } }));
    expect(created).to.include({ published: true });
    const key = created.resource_key as string;
    const read = parsed(await client.callTool({ name: 'get_record', arguments: { collection_path: 'notes', key } }));
    expect(read.data).to.deep.equal({ title: 'From an agent', body: 'words' });
    const updated = await client.callTool({ name: 'update_record', arguments: { collection_path: 'notes', key, data: { title: 'Changed' } } });
    expect((updated as ToolText).isError).to.not.equal(true);
    const again = parsed(await client.callTool({ name: 'get_record', arguments: { collection_path: 'notes', key } }));
    expect(again.data).to.deep.equal({ title: 'Changed' });
    const audit = await s.api('GET', v1(s, `/events/?entity_type=resource&entity_key=${key}`));
    expect(audit.body.results[0].actor_type).to.equal('apikey');
    expect(audit.body.results[0].actor.key).to.equal(writer.key);
  });

  it('hides the write tools from a read-only key and refuses its writes as REST does', async () => {
    const reader = await keyWith(await roleWith(['read']));
    const client = await simpleClient(reader);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.not.include('create_record');
    const listed = parsed(await client.callTool({ name: 'query_records', arguments: { collection_path: 'notes' } }));
    expect(listed.results.length).to.be.greaterThan(0);
    const refused = await client.callTool({ name: 'create_record', arguments: { collection_path: 'notes', data: { title: 'No' } } });
    expect((refused as ToolText).isError).to.equal(true);
    expect(parsed(refused)).to.deep.include({ status: 403, error_code: 'access_denied' });
  });

  it('does not let a forged forwarding header stand in for credentials', async () => {
    const forged = await fetch(`${s.delivery}/vault/notes/`, { headers: { 'x-delivery-forwarded-key': 'guess.anything' } });
    expect(forged.status).to.equal(401);
  });
});
