import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { loadConfig } from '../../infra/config.js';
import { thinRoutes } from '../../infra/http/management-thin-path.js';
import { matchers, routeLabel } from '../../infra/observability/http-metrics.js';
import { startService, type Service } from '../../infra/service.js';
import { collectionWithSchema, eventually, v1 } from '../support/content.js';
import { secureHeaders } from '../support/secure-signing.js';
import { TEST_EMBEDDINGS_CACHE } from '../support/embeddings.js';
import { tempDir } from '../support/temp.js';

type Answer = { status: number; headers: Record<string, string>; text: string; body: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Headers that differ between any two answers (time, connection, the request's own id, the body's length and revision). */
const VARYING = new Set(['date', 'keep-alive', 'connection', 'x-request-id', 'content-length', 'etag']);
const stable = (a: Answer): Record<string, string> => Object.fromEntries(Object.entries(a.headers).filter(([name]) => !VARYING.has(name)));
/** An error envelope with the request id taken out of its message. */
const envelope = (a: Answer): unknown => ({ ...a.body, message: String(a.body.message).replace(a.headers['x-request-id']!, 'ID') });

async function send(origin: string, method: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<Answer> {
  const r = await fetch(`${origin}${path}`, { method, headers, body });
  const text = await r.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: r.status, headers: Object.fromEntries(r.headers), text, body: parsed };
}

describe('HTTP: the management thin path answers as the express app does (docs/decisions/0215)', function () {
  this.timeout(60_000);
  let service: Service;
  let express: Server;
  let expressOrigin: string;
  let env: string;
  let token: string;
  let collection: string;
  const lines: Record<string, unknown>[] = [];

  /** The same request to the service (thin path) and to the bare express app on the same stores. */
  async function both(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ thin: Answer; app: Answer }> {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const all = { authorization: `Bearer ${token}`, ...(text === undefined ? {} : { 'content-type': 'application/json' }), ...headers };
    const before = service.managementThin();
    const thin = await send(service.urls.base, method, path, text, all);
    const thinRan = service.managementThin() - before;
    const app = await send(expressOrigin, method, path, text, all);
    return { thin: { ...thin, ran: thinRan } as Answer, app };
  }
  const ran = (a: Answer): number => (a as Answer & { ran: number }).ran;
  const create = (suffix = '') => v1({ env }, `/collections/${collection}/resources/${suffix}`);

  /** Both answered the same error: status, envelope and headers; the thin path took the request. */
  function sameError(r: { thin: Answer; app: Answer }, status: number, code: string): void {
    expect(r.app.status, r.app.text).to.equal(status);
    expect(r.app.body.error_code).to.equal(code);
    expect(r.thin.status, r.thin.text).to.equal(status);
    expect(envelope(r.thin)).to.deep.equal(envelope(r.app));
    expect(stable(r.thin)).to.deep.equal(stable(r.app));
    expect(ran(r.thin)).to.equal(1);
  }

  before(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const config = loadConfig({ DATA_DIR: tempDir(), PORT: '0', DELIVERY_PORT: '0', HOST: '127.0.0.1', PLAN: 'pro', RATE_LIMIT_PER_MINUTE: 'off', EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_CACHE });
    service = await startService(config, pino({ level: 'info', base: undefined }, sink));
    env = service.bootstrap!.environment;
    token = service.bootstrap!.management_token;
    express = await new Promise<Server>((resolve) => {
      const server = createServer(service.apps.management).listen(0, '127.0.0.1', () => resolve(server));
    });
    expressOrigin = `http://127.0.0.1:${(express.address() as AddressInfo).port}`;
    const api = (method: string, path: string, body?: unknown) => send(service.urls.base, method, path, JSON.stringify(body ?? {}), { authorization: `Bearer ${token}`, 'content-type': 'application/json' });
    collection = await collectionWithSchema({ env, api } as unknown as Parameters<typeof collectionWithSchema>[0], 'posts');
  });
  after(async () => {
    await new Promise((resolve) => express?.close(resolve));
    await service?.stop();
  });

  it('creates with 201, the same headers (helmet, content type) and the same answer shape', async () => {
    const r = await both('POST', create('?wait=true'), { data: { title: 'one' } }, { 'x-request-id': 'thin-1' });
    expect(ran(r.thin)).to.equal(1);
    expect(r.thin.status, r.thin.text).to.equal(201);
    expect(r.app.status).to.equal(201);
    expect(stable(r.thin)).to.deep.equal(stable(r.app));
    expect(r.thin.headers['content-security-policy']).to.be.a('string');
    expect(r.thin.headers['x-request-id']).to.equal('thin-1');
    expect(r.thin.headers.etag).to.match(/^"[^"]+"$/);
    expect(Object.keys(r.thin.body).sort()).to.deep.equal(Object.keys(r.app.body).sort());
    expect(r.thin.body).to.deep.include({ folder: collection });
    const read = await send(service.urls.base, 'GET', create(`${r.thin.body.key}/`), undefined, { authorization: `Bearer ${token}` });
    expect(read.status).to.equal(200);
  });

  it('answers wait=false with 202 and the same headers', async () => {
    const r = await both('POST', create('?wait=false'), { data: { title: 'two' }, name: 'Two' });
    expect(ran(r.thin)).to.equal(1);
    expect([r.thin.status, r.app.status]).to.deep.equal([202, 202]);
    expect(stable(r.thin)).to.deep.equal(stable(r.app));
    expect(r.thin.body).to.include({ name: 'Two', folder: collection });
  });

  it('reads every query parameter of a create (wait, external_id) as the express app does', async () => {
    const r = await both('POST', create('?wait=false&external_id=kept-q1'), { data: { title: 'q' }, external_id: 'kept-q1' });
    expect(ran(r.thin)).to.equal(1);
    expect([r.thin.status, r.app.status]).to.deep.equal([202, 409]);
    expect(r.thin.body).to.include({ external_id: 'kept-q1', folder: collection });
    const later = await both('POST', create('?external_id=kept-q2&wait=false'), { data: { title: 'q' } });
    expect([later.thin.status, later.thin.body.external_id]).to.deep.equal([202, 'kept-q2']);
  });

  it('logs one request line and counts the create under its route template', async () => {
    await both('POST', create(), { data: { title: 'logged' } }, { 'x-request-id': 'thin-log-1' });
    await both('POST', create(), { data: {} }, { 'x-request-id': 'thin-log-2', authorization: 'Bearer nope' });
    for (const [id, status] of [['thin-log-1', 201], ['thin-log-2', 401]] as const) {
      const found = await eventually(async () => lines.filter((l) => l.req_id === id), (all) => all.length === 2);
      expect(found).to.have.length(2);
      // The same line from both paths: fields, their order and values, but the time.
      const [thin, app] = found.map(({ time: _time, responseTime, ...rest }) => ({ ...rest, responseTime: typeof responseTime }));
      expect(thin).to.deep.include({ level: 30, interface: 'management', req_id: id, req: { method: 'POST', url: create() }, res: { status }, msg: 'request completed' });
      expect(Object.keys(thin!)).to.deep.equal(Object.keys(app!));
      expect(thin).to.deep.equal(app);
    }
    const metrics = await send(service.urls.base, 'GET', '/metrics', undefined, {});
    const route = '/v1/:env/collections/:collection/resources/';
    const sample = metrics.text.split('\n').find((l) => l.startsWith('http_requests_total{') && l.includes(`route="${route}"`) && l.includes('status="201"'));
    expect(sample, 'the 201s of this route are counted').to.be.a('string');
    expect(Number(sample!.split(' ').pop())).to.be.at.least(2);
  });

  it('refuses a missing or wrong credential with the same 401', async () => {
    sameError(await both('POST', create(), { data: { title: 'x' } }, { authorization: '' }), 401, 'authentication_failed');
    sameError(await both('POST', create(), { data: { title: 'x' } }, { authorization: 'Bearer nope' }), 401, 'authentication_failed');
  });

  it('refuses a body that is not JSON, not valid JSON, too deep or too large with the same 415 / 422', async () => {
    sameError(await both('POST', create(), 'title=x', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    sameError(await both('POST', create(), '{"data":', {}), 422, 'validation_error');
    sameError(await both('POST', create(), `{"data":${'['.repeat(150)}${']'.repeat(150)}}`, {}), 422, 'validation_error');
    sameError(await both('POST', create(), JSON.stringify({ data: { title: 'x'.repeat(9 * 1024 * 1024) } }), {}), 422, 'json_size_exceeded');
  });

  it('reads the body as the express app does: a byte order mark, a declared charset, a body of blanks, an empty body, another charset', async () => {
    const bom = await both('POST', create(), `\ufeff${JSON.stringify({ data: { title: 'bom' } })}`);
    expect([bom.thin.status, bom.app.status]).to.deep.equal([201, 201]);
    expect(bom.thin.body.key).to.be.a('string');
    const declared = await both('POST', create(), { data: { title: 'utf8' } }, { 'content-type': 'Application/JSON; charset=UTF-8' });
    expect([declared.thin.status, declared.app.status]).to.deep.equal([201, 201]);
    const suffixed = await both('POST', create(), { data: { title: 'vendor' } }, { 'content-type': 'application/vnd.cms+json' });
    expect([suffixed.thin.status, suffixed.app.status]).to.deep.equal([201, 201]);
    sameError(await both('POST', create(), '   ', {}), 422, 'validation_error');
    sameError(await both('POST', create(), '', {}), 422, 'validation_error');
    sameError(await both('POST', create(), '"text"', {}), 422, 'validation_error');
    sameError(await both('POST', create(), { data: { title: 'x' } }, { 'content-type': 'application/json; charset=latin1' }), 422, 'validation_error');
  });

  it('refuses invalid fields and query parameters with the same 422 and detail', async () => {
    sameError(await both('POST', create(), { name: 'no data' }), 422, 'validation_error');
    sameError(await both('POST', create('?wait=maybe'), { data: { title: 'x' } }), 422, 'validation_error');
    sameError(await both('POST', create('?external_id=a'), { data: { title: 'x' }, external_id: 'b' }), 422, 'validation_error');
    sameError(await both('POST', create(), { data: { views: 1 } }), 422, 'validation_error');
  });

  it('refuses an unknown environment or collection with the same 404, and a taken external_id with the same 409', async () => {
    sameError(await both('POST', `/v1/nope/collections/${collection}/resources/`, { data: { title: 'x' } }), 404, 'environment_not_found');
    sameError(await both('POST', v1({ env }, '/collections/nope/resources/'), { data: { title: 'x' } }), 404, 'collection_not_found');
    const first = await send(service.urls.base, 'POST', create(), JSON.stringify({ data: { title: 'x' }, external_id: 'taken' }), { authorization: `Bearer ${token}`, 'content-type': 'application/json' });
    expect(first.status).to.equal(201);
    sameError(await both('POST', create(), { data: { title: 'x' }, external_id: 'taken' }), 409, 'external_id_conflict');
  });

  it("refuses a key whose role grants nothing with the same 403, and admits the same key's role with full access", async () => {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const roles = `/v1/${env}/permissions/management-api/roles/`;
    const keys = `/v1/${env}/permissions/management-api/api-keys/`;
    const none = (await send(service.urls.base, 'POST', roles, JSON.stringify({ name: 'none', full_access: false }), headers)).body.key;
    const key = (await send(service.urls.base, 'POST', keys, JSON.stringify({ role: none }), headers)).body;
    sameError(await both('POST', create(), { data: { title: 'x' } }, { authorization: `Simple ${key.public_key}:${key.secret_key}` }), 403, 'permission_denied');
    const full = (await send(service.urls.base, 'POST', roles, JSON.stringify({ name: 'all', full_access: true }), headers)).body.key;
    const admitted = (await send(service.urls.base, 'POST', keys, JSON.stringify({ role: full }), headers)).body;
    const r = await both('POST', create(), { data: { title: 'by key' } }, { authorization: `Bearer ${admitted.public_key}:${admitted.secret_key}` });
    expect([r.thin.status, r.app.status]).to.deep.equal([201, 201]);
    expect(r.thin.body.resource_owner ?? null).to.equal(r.app.body.resource_owner ?? null);
  });

  it('leaves percent-encoded paths, other spellings and Secure signatures to the express app, with the same answers', async () => {
    const encoded = await both('POST', v1({ env }, `/collections/${encodeURIComponent(collection).replace(/^./, (c) => `%${c.charCodeAt(0).toString(16)}`)}/resources/`), { data: { title: 'enc' } });
    expect(ran(encoded.thin)).to.equal(0);
    expect([encoded.thin.status, encoded.app.status]).to.deep.equal([201, 201]);
    const bare = await both('POST', create().replace(/\/$/, ''), { data: { title: 'no slash' } });
    expect(ran(bare.thin)).to.equal(0);
    expect(bare.thin.status).to.equal(bare.app.status);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const key = (await send(service.urls.base, 'POST', `/v1/${env}/permissions/management-api/api-keys/`, JSON.stringify({ role: null }), headers)).body;
    const body = JSON.stringify({ data: { title: 'signed' } });
    const before = service.managementThin();
    const signed = await send(service.urls.base, 'POST', create(), body, { ...secureHeaders(key.public_key, key.secret_key, `${service.urls.base}${create()}`, body), 'content-type': 'application/json' });
    expect(signed.status, signed.text).to.equal(201);
    expect(service.managementThin()).to.equal(before);
  });

  it('upserts by external_id (201, then 200) with the same answers, and refuses a missing external_id or a stale If-Match the same way', async () => {
    const first = await both('PUT', create('?external_id=up-thin'), { data: { title: 'up' } });
    expect(ran(first.thin)).to.equal(1);
    expect([first.thin.status, first.app.status]).to.deep.equal([201, 200]);
    expect(stable(first.thin)).to.deep.equal(stable(first.app));
    expect(first.app.body.key).to.equal(first.thin.body.key);
    const again = await both('PUT', create('?external_id=up-thin'), { data: { title: 'up again' } });
    expect([again.thin.status, again.app.status]).to.deep.equal([200, 200]);
    expect(Object.keys(again.thin.body).sort()).to.deep.equal(Object.keys(again.app.body).sort());
    sameError(await both('PUT', create(), { data: { title: 'x' } }), 422, 'external_id_required');
    sameError(await both('PUT', create('?external_id=up-thin'), { data: { title: 'x' } }, { 'if-match': '"aaaaaaaaaaaa"' }), 412, 'revision_precondition_failed');
  });

  it('renames and deletes a resource with the same answers, and refuses an unknown one with the same 404', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) keys.push((await send(service.urls.base, 'POST', create(), JSON.stringify({ data: { title: `k${i}` } }), { authorization: `Bearer ${token}`, 'content-type': 'application/json' })).body.key);
    const renamed = await both('PUT', create(`${keys[0]}/`), { name: 'Renamed' });
    expect(ran(renamed.thin)).to.equal(1);
    expect([renamed.thin.status, renamed.app.status]).to.deep.equal([200, 200]);
    expect(stable(renamed.thin)).to.deep.equal(stable(renamed.app));
    expect(renamed.thin.body.name).to.equal('Renamed');
    sameError(await both('PUT', create('nope12345678/'), { name: 'x' }), 404, 'resource_not_found');
    const thin = await send(service.urls.base, 'DELETE', create(`${keys[0]}/`), undefined, { authorization: `Bearer ${token}` });
    const app = await send(expressOrigin, 'DELETE', create(`${keys[1]}/`), undefined, { authorization: `Bearer ${token}` });
    expect([thin.status, app.status]).to.deep.equal([204, 204]);
    expect(stable(thin)).to.deep.equal(stable(app));
    sameError(await both('DELETE', create(`${keys[0]}/`)), 404, 'resource_not_found');
  });

  it('takes only requests whose route in the express app is the one it runs', () => {
    const routes = matchers(service.apps.management);
    for (const [method, path, template] of [
      ['POST', '/v1/e/collections/c/resources/', '/v1/:env/collections/:collection/resources/'],
      ['POST', '/v1/e/folders/c/resources/', '/v1/:env/folders/:collection/resources/'],
      ['PUT', '/v1/e/collections/c/resources/', '/v1/:env/collections/:collection/resources/'],
      ['PUT', '/v1/e/folders/c/resources/r/', '/v1/:env/folders/:collection/resources/:resource/'],
      ['DELETE', '/v1/e/collections/c/resources/r/', '/v1/:env/collections/:collection/resources/:resource/'],
    ] as const) {
      expect(routeLabel(routes, method, path), `${method} ${path}`).to.equal(template);
      expect(thinRoutes({} as never).some((r) => r.method === method && r.path.test(path)), `${method} ${path}`).to.equal(true);
    }
    expect(thinRoutes({} as never).some((r) => r.path.test('/v1/e/collections/c/resources/r/revisions/'))).to.equal(false);
  });

  it('refuses a disabled environment with the same 403', async () => {
    const headers = { authorization: `Bearer ${token}` };
    const org = (await send(service.urls.base, 'GET', '/organizations/', undefined, headers)).body[0].key;
    const project = (await send(service.urls.base, 'GET', `/organizations/${org}/projects/`, undefined, headers)).body.results[0].key;
    const path = `/organizations/${org}/projects/${project}/environments/${env}/toggle/`;
    const toggled = await send(service.urls.base, 'POST', path, JSON.stringify({ is_enabled: false }), { ...headers, 'content-type': 'application/json' });
    expect(toggled.status, toggled.text).to.equal(200);
    sameError(await both('POST', create(), { data: { title: 'x' } }), 403, 'environment_disabled');
  });
});

describe('HTTP: the management thin path shares the rate limit with the express app', function () {
  this.timeout(60_000);

  it('counts creates on the thin path against the organization and answers the same 429 with Retry-After', async () => {
    const config = loadConfig({ DATA_DIR: tempDir(), PORT: '0', DELIVERY_PORT: '0', HOST: '127.0.0.1', PLAN: 'pro', RATE_LIMIT_PER_MINUTE: '4', EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_CACHE });
    const service = await startService(config, pino({ level: 'silent' }));
    try {
      const env = service.bootstrap!.environment;
      const headers = { authorization: `Bearer ${service.bootstrap!.management_token}`, 'content-type': 'application/json' };
      const path = `/v1/${env}/collections/nope/resources/`;
      const answers: Answer[] = [];
      for (let i = 0; i < 6; i++) answers.push(await send(service.urls.base, 'POST', path, JSON.stringify({ data: {} }), headers));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 429), statuses.join(',')).to.have.length.at.least(2);
      const limited = answers.find((a) => a.status === 429)!;
      expect(limited.body.error_code).to.equal('rate_limited');
      expect(limited.headers['retry-after']).to.match(/^\d+$/);
      const other = await send(service.urls.base, 'GET', `/v1/${env}/locales/`, undefined, headers);
      expect(other.status).to.equal(429);
      expect(service.managementThin()).to.equal(6);
    } finally {
      await service.stop();
    }
  });
});
