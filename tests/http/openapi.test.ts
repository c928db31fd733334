import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { routeTable } from '../../infra/http/route-table.js';
import { openApiPath } from '../../infra/openapi/document.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { operationOf, responseChecker, responseSchema } from '../support/openapi.js';
import { startTestService, type TestService } from '../support/service.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options'];

describe('HTTP: OpenAPI documents and the reference page', function () {
  this.timeout(60_000);
  let s: TestService;
  const docs: Record<'management' | 'delivery', Json> = { management: {}, delivery: {} };
  const origin = (side: 'management' | 'delivery') => (side === 'management' ? s.base : s.service.urls.delivery);
  /** Real keys for every path parameter, so sampled reads answer 200. */
  const values: Record<string, string> = {};

  before(async () => {
    s = await startTestService();
    for (const side of ['management', 'delivery'] as const) docs[side] = (await s.get(`${origin(side)}/openapi.json`)).body as Json;
    const folder = await collectionWithSchema(s, 'articles');
    const versions = await s.api('GET', v1(s, `/collections/${folder}/model/versions/`));
    const api = await s.api('POST', v1(s, '/api/'), { name: 'Site', prefix: 'site' });
    await s.api('POST', v1(s, `/api/${api.body.key}/collections/`), { folder, allowed_methods: ['get_many', 'get_one'] });
    const resource = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'Hello' } });
    const revisions = await s.api('GET', v1(s, `/collections/${folder}/resources/${resource.body.key}/revisions/`));
    const component = await s.api('POST', v1(s, '/components/'), { name: 'Address' });
    const key = await s.api('POST', v1(s, '/permissions/management-api/api-keys/'), { description: 'ci' });
    Object.assign(values, {
      env: s.env,
      api: api.body.key,
      collection: folder,
      resource: resource.body.key,
      version: versions.body.results[0].key,
      revision: revisions.body.results[0].key,
      component: component.body.key,
      code: 'en',
      key: key.body.key,
      prefix: 'site',
      segments: 'articles/',
    });
  });
  after(() => s.stop());

  /** A URL for a documented path: real keys (for reads), or with `placeholders` the real environment and `x` elsewhere (writes change nothing). */
  const concrete = (path: string, placeholders = false): string => {
    let url = path.replace(/\{(\w+)\}/g, (_, name: string) => (placeholders && name !== 'env' ? 'x' : (values[name] ?? 'x')));
    if (url.endsWith('/tree/collection/') || url.endsWith('/tree/folder/')) url += `?key=${placeholders ? 'x' : values.collection}`;
    if (url.endsWith('/schema/tree/field/')) url += '?path=title';
    return url;
  };

  for (const side of ['management', 'delivery'] as const) {
    it(`serves a valid OpenAPI 3.1 document for the ${side} interface at /openapi.json`, async () => {
      const result = await new Validator().validate(docs[side]);
      expect(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).to.equal(true);
      expect(docs[side].openapi).to.equal('3.1.0');
    });

    it(`documents every route of the ${side} router, with every method it serves`, () => {
      const routes = side === 'management' ? routeTable(s.service.apps.management) : s.service.apps.delivery.routes();
      expect(routes.length).to.be.greaterThan(side === 'management' ? 40 : 5);
      for (const route of routes) {
        const item = docs[side].paths[openApiPath(route.path)];
        expect(item, `${route.method} ${route.path} is not documented`).to.be.an('object');
        if (route.method !== 'ALL' && route.method !== 'HEAD') expect(item, `${route.method} ${route.path}`).to.have.property(route.method.toLowerCase());
      }
    });

    it(`answers every documented ${side} operation with something other than 404 route_not_found`, async () => {
      for (const [path, item] of Object.entries(docs[side].paths as Json)) {
        for (const method of METHODS.filter((m) => m in (item as Json))) {
          const url = `${origin(side)}${concrete(path, method !== 'get')}`;
          const body = ['post', 'put', 'patch'].includes(method) ? '{"__probe": true}' : undefined;
          const r = await fetch(url, { method: method.toUpperCase(), headers: { authorization: `Bearer ${s.token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body });
          const text = await r.text();
          const code = r.status === 404 ? (JSON.parse(text) as Json).error_code : null;
          expect(code, `${method.toUpperCase()} ${path} answered 404 route_not_found`).not.to.equal('route_not_found');
        }
      }
    });
  }

  it('registers the write side\'s ajv schemas as request bodies, the same ones that refuse bad input', async () => {
    const create = operationOf(docs.management, 'post', '/v1/{env}/locales/') as Json;
    const schema = create.requestBody.content['application/json'].schema;
    expect(schema.required).to.deep.equal(['name', 'code']);
    expect(schema.properties.code.pattern).to.be.a('string');
    expect(create.requestBody.required).to.equal(true);
    const refused = await s.api('POST', v1(s, '/locales/'), { name: 'X', code: 'not a code' });
    expect(refused.status).to.equal(422);
    expect(refused.body.detail).to.have.property('code');
    const upsert = operationOf(docs.management, 'put', '/v1/{env}/collections/{collection}/resources/') as Json;
    expect(upsert.parameters.map((p: Json) => `${p.in}:${p.name}`)).to.include.members(['path:env', 'path:collection', 'query:external_id']);
  });

  it('describes a route with no registered schema generically: any JSON body, a JSON success, the error envelope', () => {
    const del = operationOf(docs.management, 'delete', '/v1/{env}/locales/{code}/') as Json;
    expect(del.responses).to.include.keys('204', 'default');
    expect(Object.keys(del.responses).filter((status) => /^2/.test(status))).to.deep.equal(['204']);
    expect(del.requestBody).to.equal(undefined);
    const anyGet = operationOf(docs.management, 'get', '/v1/{env}/collections/{collection}/resources/{resource}/data/') as Json;
    expect(anyGet.responses['2XX'].content['application/json'].schema).to.deep.equal({});
    expect(anyGet.responses.default.content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/Error' });
  });

  it('validates sampled real responses of every documented management GET against the document', async () => {
    const check = responseChecker(docs.management);
    let checked = 0;
    for (const [path, item] of Object.entries(docs.management.paths as Json)) {
      if (!('get' in (item as Json)) || path.startsWith('/docs') || path === '/metrics') continue;
      const raw = await fetch(`${s.base}${concrete(path)}`, { headers: { authorization: `Bearer ${s.token}` } });
      const text = await raw.text();
      // Streams of JSON lines (exports) are not one JSON value: the document describes them generically.
      if (!(raw.headers.get('content-type') ?? '').startsWith('application/json')) continue;
      const r = { status: raw.status, body: text ? JSON.parse(text) : null };
      const schema = responseSchema((item as Json).get, r.status);
      expect(schema, `GET ${path} answered ${r.status}, which the document does not describe`).not.to.equal(undefined);
      const failure = check(schema, r.body);
      expect(failure, `GET ${path} (${r.status}): ${failure} in ${JSON.stringify(r.body).slice(0, 300)}`).to.equal(null);
      checked++;
    }
    expect(checked).to.be.greaterThan(25);
  });

  it('validates real write answers and errors against the document', async () => {
    const check = responseChecker(docs.management);
    const created = await s.api('POST', v1(s, '/locales/'), { name: 'German', code: 'de' });
    expect(created.status).to.equal(201);
    expect(check(responseSchema(operationOf(docs.management, 'post', '/v1/{env}/locales/') as Json, 201), created.body)).to.equal(null);
    const refused = await s.api('POST', v1(s, '/api/'), { name: 'No prefix' });
    expect(refused.status).to.equal(422);
    expect(check(responseSchema(operationOf(docs.management, 'post', '/v1/{env}/api/') as Json, 422), refused.body)).to.equal(null);
    const wrong = check(responseSchema(operationOf(docs.management, 'post', '/v1/{env}/api/') as Json, 201), { key: 'k' });
    expect(wrong, 'a body missing the API fields must fail the document').to.be.a('string');
  });

  it('validates real delivery answers (a list, one item, an error) against the delivery document', async () => {
    const check = responseChecker(docs.delivery);
    const operation = operationOf(docs.delivery, 'get', '/{env}/{prefix}/{segments}') as Json;
    const list = await s.get(`${s.delivery}/site/articles/`);
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    expect(check(responseSchema(operation, 200), list.body)).to.equal(null);
    const one = await s.get(`${s.delivery}/site/articles/${values.resource}/`);
    expect(one.status).to.equal(200);
    expect(check(responseSchema(operation, 200), one.body)).to.equal(null);
    const missing = await s.get(`${s.delivery}/site/nothing/`);
    expect(missing.status).to.equal(404);
    expect(check(responseSchema(operation, 404), missing.body)).to.equal(null);
  });

  it('serves the interactive reference page on both interfaces from the installed package, with a same-origin-only CSP', async () => {
    for (const side of ['management', 'delivery'] as const) {
      const page = await fetch(`${origin(side)}/docs/`);
      expect(page.status).to.equal(200);
      const html = await page.text();
      expect(html).to.include('data-url="/openapi.json"').and.include('<script src="/docs/standalone.js">');
      expect(html).not.to.match(/https?:\/\//);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).to.include("connect-src 'self'").and.include("script-src 'self'").and.include("font-src 'self' data:");
      const script = await fetch(`${origin(side)}/docs/standalone.js`);
      expect(script.status).to.equal(200);
      expect(script.headers.get('content-type')).to.match(/javascript/);
      expect((await script.text()).length).to.be.greaterThan(100_000);
      const bare = await fetch(`${origin(side)}/docs`, { redirect: 'manual' });
      expect(bare.status).to.equal(200);
    }
  });
});
