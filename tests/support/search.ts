import { expect } from 'chai';
import { v1 } from './content.js';
import type { Reply, TestService } from './service.js';

export type FieldSpec = { key: string; type: string; searchable?: boolean; vectorizable?: boolean; localizable?: boolean; meta?: Record<string, unknown> };

/** A collection with the given fields published, connected to a new public API `prefix` with `methods`; answers the collection key. */
export async function searchableCollection(s: TestService, alias: string, fields: readonly FieldSpec[], prefix: string, methods = ['get_many', 'get_one']): Promise<string> {
  const c = await s.api('POST', v1(s, '/collections/tree/'), { name: alias, alias });
  expect(c.status, JSON.stringify(c.body)).to.equal(201);
  const key = c.body.key as string;
  const v = await s.api('POST', v1(s, `/collections/${key}/model/versions/`), {});
  for (const field of fields) {
    const f = await s.api('POST', v1(s, `/collections/${key}/model/versions/${v.body.key}/schema/tree/`), field);
    expect(f.status, JSON.stringify(f.body)).to.equal(201);
  }
  expect((await s.api('POST', v1(s, `/collections/${key}/model/versions/${v.body.key}/publish/`), {})).status).to.equal(200);
  const api = await s.api('POST', v1(s, '/api/'), { name: prefix, prefix });
  expect((await s.api('POST', v1(s, `/api/${api.body.key}/collections/`), { folder: key, allowed_methods: methods })).status).to.equal(201);
  return key;
}

/** Creates and publishes a resource (waiting for the read side); answers its key. */
export async function publish(s: TestService, collection: string, data: Record<string, unknown>): Promise<string> {
  const r = await s.api('POST', v1(s, `/collections/${collection}/resources/`), { data });
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  return r.body.key as string;
}

/** POST {delivery}/{prefix}/{alias}/_search with a JSON body (or raw text). */
export async function search(s: TestService, path: string, body: unknown, query = ''): Promise<Reply> {
  const response = await fetch(`${s.delivery}/${path}/_search${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** POST to an absolute `next` / `previous` URL with the same body. */
export async function follow(url: string, body: unknown): Promise<Reply> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}
