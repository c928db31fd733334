import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { routeTable, type RouteEntry } from '../../infra/http/route-table.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

/** A concrete URL for a route template: the real environment, a placeholder for every other parameter. */
function concrete(route: RouteEntry, env: string): string {
  return route.path
    .replace(/:env\b/g, env)
    .replace(/\*\w+/g, 'a/b')
    .replace(/:\w+/g, 'x');
}

/** Sends a raw body with exactly the given headers (fetch would add a Content-Type of its own). */
function send(url: string, method: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const BAD_TYPES: readonly (string | null)[] = ['text/plain', 'application/x-www-form-urlencoded', null];

describe('HTTP: write bodies that are not JSON', function () {
  this.timeout(60_000);
  let s: TestService;
  let folder: string;
  let auth: Record<string, string>;

  before(async () => {
    s = await startTestService();
    folder = await collectionWithSchema(s, 'notes');
    auth = { authorization: `Bearer ${s.token}` };
  });
  after(() => s.stop());

  const auditCount = async (): Promise<number> => (await s.api('GET', v1(s, '/events/?limit=1'))).body.count as number;

  it('answers 415 unsupported_media_type on every write route of both interfaces, and writes nothing', async () => {
    const management = routeTable(s.service.apps.management).filter((r) => WRITES.has(r.method));
    const delivery = s.service.apps.delivery.routes().filter((r) => WRITES.has(r.method) || r.method === 'ALL');
    expect(management.map((r) => `${r.method} ${r.path}`)).to.include('POST /v1/:env/api/');
    expect(management.length).to.be.greaterThan(30);
    expect(delivery.length).to.be.greaterThan(0);
    const before = await auditCount();
    const targets = [
      ...management.map((r) => ({ route: r, url: `${s.base}${concrete(r, s.env)}` })),
      ...delivery.map((r) => ({ route: r, url: `${s.service.urls.delivery}${concrete(r, s.env)}` })),
    ];
    for (const { route, url } of targets) {
      for (const method of route.method === 'ALL' ? ['POST', 'PUT', 'PATCH'] : [route.method]) {
        for (const type of BAD_TYPES) {
          const headers: Record<string, string> = { ...auth, ...(type === null ? {} : { 'content-type': type }) };
          const reply = await send(url, method, '{"name":"v2"}', headers);
          const what = `${method} ${route.path} (${type ?? 'no Content-Type'})`;
          expect(reply.status, what).to.equal(415);
          expect(reply.body, what).to.include({ error_code: 'unsupported_media_type' });
          expect(reply.body, what).to.have.property('message').that.is.a('string');
          expect(reply.body, what).to.have.property('detail');
        }
      }
    }
    expect(await auditCount()).to.equal(before);
  });

  it('refuses the version created from a text/plain body instead of creating one named ""', async () => {
    const url = `${s.base}${v1(s, `/collections/${folder}/model/versions/`)}`;
    const versions = async () => (await s.api('GET', v1(s, `/collections/${folder}/model/versions/`))).body.count as number;
    const count = await versions();
    const reply = await send(url, 'POST', '{"name":"v2"}', { ...auth, 'content-type': 'text/plain' });
    expect(reply.status).to.equal(415);
    expect(reply.body.detail).to.deep.equal({ content_type: 'text/plain' });
    expect(await versions()).to.equal(count);
  });

  it('refuses a chunked non-JSON body, and keeps an empty body of any type valid', async () => {
    const url = `${s.base}${v1(s, `/collections/${folder}/model/versions/`)}`;
    const chunked = await send(url, 'POST', '{"name":"v2"}', { ...auth, 'content-type': 'text/plain', 'transfer-encoding': 'chunked' });
    expect(chunked.status).to.equal(415);
    const empty = await send(url, 'POST', '', { ...auth, 'content-type': 'text/plain', 'content-length': '0' });
    expect(empty.status, JSON.stringify(empty.body)).to.equal(201);
    expect(empty.body.name).to.equal('');
    const emptyChunked = await send(url, 'POST', '', { ...auth, 'content-type': 'text/plain', 'transfer-encoding': 'chunked' });
    expect(emptyChunked.status, JSON.stringify(emptyChunked.body)).to.equal(201);
  });

  it('reads application/json with a charset and +json types as JSON', async () => {
    const url = `${s.base}${v1(s, `/collections/${folder}/model/versions/`)}`;
    const charset = await send(url, 'POST', '{"name":"with charset"}', { ...auth, 'content-type': 'application/json; charset=utf-8' });
    expect(charset.status).to.equal(201);
    expect(charset.body.name).to.equal('with charset');
    const suffix = await send(url, 'POST', '{"name":"suffix"}', { ...auth, 'content-type': 'application/merge-patch+json' });
    expect(suffix.status).to.equal(201);
    expect(suffix.body.name).to.equal('suffix');
  });

  it('still answers 401 first to an unauthenticated request with a non-JSON body', async () => {
    const reply = await send(`${s.base}${v1(s, '/api/')}`, 'POST', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(reply.status).to.equal(401);
    expect(reply.body.error_code).to.equal('authentication_failed');
  });
});
