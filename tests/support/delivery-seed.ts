import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import type { EventStore } from '../../commands/ports.js';
import type { Reply, TestService } from './service.js';

export type ToolText = { content: { type: string; text: string }[]; isError?: boolean };
export const ORIGIN = 'https://app.example';

/** An environment with a published `articles` collection, an API `site` (CORS for ORIGIN, agent endpoint on) allowing every method, a key without a role (allowed everything) and one article. */
export type Seeded = { env: string; base: string; simple: string; bearer: string; article: string };

export async function seed(s: TestService, env: string): Promise<Seeded> {
  const e = `/v1/${env}`;
  const ok = (r: Reply, what: string) => expect(r.status, `${what}: ${JSON.stringify(r.body)}`).to.be.oneOf([200, 201]);
  const c = await s.api('POST', `${e}/collections/tree/`, { name: 'Articles', alias: 'articles' });
  ok(c, 'collection');
  const v = await s.api('POST', `${e}/collections/${c.body.key}/model/versions/`, {});
  ok(await s.api('POST', `${e}/collections/${c.body.key}/model/versions/${v.body.key}/schema/tree/`, { key: 'title', type: 'string', required: true }), 'field');
  ok(await s.api('POST', `${e}/collections/${c.body.key}/model/versions/${v.body.key}/publish/`, {}), 'publish');
  const api = await s.api('POST', `${e}/api/`, { name: 'Site', prefix: 'site', cors_origins: [ORIGIN] });
  ok(api, 'api');
  ok(await s.api('POST', `${e}/api/${api.body.key}/collections/`, { folder: c.body.key, allowed_methods: ['get_many', 'get_one', 'create', 'update'] }), 'connection');
  // No role: the key may do everything (custom roles are not in every plan).
  const key = await s.api('POST', `${e}/permissions/delivery-api/api-keys/`, { role: null });
  ok(key, 'key');
  const bearer = await s.api('POST', `${e}/permissions/delivery-api/api-keys/${key.body.key}/bearer-token/`);
  ok(bearer, 'bearer');
  const article = await s.api('POST', `${e}/collections/${c.body.key}/resources/`, { data: { title: 'Hello' } });
  ok(article, 'article');
  return {
    env,
    base: `${s.service.urls.delivery}/${env}/site`,
    simple: `Simple ${key.body.public_key}:${key.body.secret_key}`,
    bearer: `Bearer ${bearer.body.bearer_token}`,
    article: article.body.key,
  };
}

export async function send(url: string, method: string, authorization?: string, body?: unknown): Promise<Reply> {
  const headers: Record<string, string> = { origin: ORIGIN };
  if (authorization) headers.authorization = authorization;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** A write that must be refused: the status and code, the envelope, the API's CORS headers, and no event appended. */
export async function expectRefusedWrite(events: EventStore, url: string, method: string, authorization: string, body: unknown, status: number, code: string): Promise<Reply> {
  const head = await events.headPosition();
  const r = await send(url, method, authorization, body);
  expect(r.status, `${method} ${url}: ${JSON.stringify(r.body)}`).to.equal(status);
  expect(r.body).to.include.keys('message', 'error_code', 'detail');
  expect(r.body.error_code).to.equal(code);
  expect(r.headers.get('access-control-allow-origin'), `${method} ${url} CORS`).to.equal(ORIGIN);
  expect(await events.headPosition(), `${method} ${url} wrote nothing`).to.equal(head);
  return r;
}

export async function agent(base: string, authorization: string): Promise<Client> {
  const client = new Client({ name: 'state-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/_mcp`), { requestInit: { headers: { authorization } } }));
  return client;
}

/** An agent tool call that must be refused with the error code, writing nothing. */
export async function expectRefusedTool(events: EventStore, client: Client, name: string, args: Record<string, unknown>, code: string): Promise<void> {
  const head = await events.headPosition();
  const result = (await client.callTool({ name, arguments: args })) as ToolText;
  expect(result.isError, `${name}: ${JSON.stringify(result)}`).to.equal(true);
  expect(JSON.parse(result.content[0]!.text)).to.include({ error_code: code });
  expect(await events.headPosition(), `${name} wrote nothing`).to.equal(head);
}
