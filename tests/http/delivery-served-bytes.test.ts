import { expect } from 'chai';
import { v1 } from '../support/content.js';
import { deliveryFixture, keysOf, type DeliveryFixture } from '../support/delivery-fixture.js';
import { startTestService, type Reply, type TestService } from '../support/service.js';

/** Every header of an answer but the ones that change per response. */
const headersOf = (r: Reply): Record<string, string> => Object.fromEntries([...r.headers].filter(([name]) => !['date', 'keep-alive', 'x-request-id'].includes(name)));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Anonymous delivery reads are answered a second time from the bytes they were served with
 * (docs/decisions/0131, 0132): the same answer, and a new one as soon as anything it was
 * built from changes.
 */
describe('delivery reads answered from served bytes', () => {
  let s: TestService;
  let f: DeliveryFixture;
  const publish = async (folder: string, key: string, data: Record<string, unknown>): Promise<void> => {
    const revision = await s.api('POST', v1(s, `/collections/${folder}/resources/${key}/revisions/`), { data });
    expect(revision.status, JSON.stringify(revision.body)).to.equal(201);
    const published = await s.api('POST', v1(s, `/collections/${folder}/resources/${key}/revisions/${revision.body.key}/publish/`), {});
    expect(published.status, JSON.stringify(published.body)).to.equal(200);
  };

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    f = await deliveryFixture(s);
  });
  after(async () => s?.stop());

  it('answers a repeated get-one, list and filtered list with the same status, headers and body', async () => {
    for (const path of [`site/articles/${f.a[0]}/`, 'site/articles/?limit=2', 'site/articles/?where__views__gte=5', `site/articles/${f.a[0]}/?populate=author`]) {
      const first = await f.get(path);
      expect(first.status, path).to.equal(200);
      for (let i = 0; i < 3; i++) {
        const again = await f.get(path);
        expect(again.status, path).to.equal(200);
        expect(again.body, path).to.deep.equal(first.body);
        expect(headersOf(again), path).to.deep.equal(headersOf(first));
      }
    }
  });

  it('gives a remembered answer a request id and counts it in the metrics like any other', async () => {
    const path = `site/articles/${f.a[0]}/?fields=title`;
    const metric = /http_requests_total\{interface="delivery",method="GET",route="\/:env\/:prefix\/\*segments",status="200"\} (\d+)/;
    const count = async (): Promise<number> => Number(metric.exec(await (await fetch(`${s.service.urls.delivery}/metrics`)).text())?.[1] ?? 0);
    const first = await f.get(path);
    expect(first.headers.get('x-request-id')).to.match(UUID);
    const before = await count();
    expect(before).to.be.above(0);
    const again = await f.get(path, { 'x-request-id': 'served-7' });
    expect(again.body).to.deep.equal(first.body);
    expect(again.headers.get('x-request-id')).to.equal('served-7');
    const fresh = await f.get(path);
    expect(fresh.headers.get('x-request-id')).to.match(UUID);
    expect(fresh.headers.get('x-request-id')).to.not.equal(first.headers.get('x-request-id'));
    expect(await count()).to.equal(before + 2);
  });

  it('answers HEAD with the headers of GET and no body, and If-None-Match with 304', async () => {
    const path = `${s.delivery}/site/articles/${f.a[1]}/`;
    const get = await s.get(path);
    const head = await fetch(path, { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(await head.text()).to.equal('');
    expect(head.headers.get('content-length')).to.equal(get.headers.get('content-length'));
    expect(head.headers.get('etag')).to.equal(get.headers.get('etag'));
    const etag = get.headers.get('etag') ?? '';
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const cached = await s.get(path, { 'if-none-match': header });
      expect(cached.status, header).to.equal(304);
      expect(cached.body).to.equal(null);
      expect(cached.headers.get('etag')).to.equal(etag);
      expect(cached.headers.get('surrogate-key')).to.equal(get.headers.get('surrogate-key'));
      expect(cached.headers.get('x-content-type-options')).to.equal('nosniff');
    }
    expect((await s.get(path, { 'if-none-match': '"other"' })).status).to.equal(200);
  });

  it('serves the whole body to a GET after a HEAD or a 304 came first', async () => {
    const head = await fetch(`${s.delivery}/site/authors/${f.author}/`, { method: 'HEAD' });
    expect(head.status).to.equal(200);
    const get = await f.get(`site/authors/${f.author}/`);
    expect(get.body._sys.key).to.equal(f.author);
    expect(get.headers.get('content-length')).to.equal(head.headers.get('content-length'));
    const etag = (await f.get(`site/articles/${f.a[3]}/?fields=title`)).headers.get('etag') ?? '';
    const path = `site/articles/${f.a[3]}/?fields=views`;
    const other = await f.get(path, { 'if-none-match': etag });
    expect(other.status).to.equal(200);
    expect((await f.get(path, { 'if-none-match': other.headers.get('etag') ?? '' })).status).to.equal(304);
    expect((await f.get(path)).body.data).to.deep.equal({ views: 0 });
  });

  it('serves a published change, an unpublish-by-delete and a new document at once', async () => {
    const one = `site/articles/${f.a[2]}/`;
    expect((await f.get(one)).body.data.views).to.equal(7);
    const listed = keysOf(await f.get('site/articles/?limit=100'));
    await publish(f.articles, f.a[2]!, { title: { en: 'Other' }, views: 8 });
    expect((await f.get(one)).body.data.views).to.equal(8);
    expect((await f.get('site/articles/?where__views__gte=8')).body.results.map((r: { _sys: { key: string } }) => r._sys.key)).to.include(f.a[2]);

    const created = await s.api('POST', v1(s, `/collections/${f.articles}/resources/`), { data: { title: { en: 'New' }, views: 1 } });
    expect(created.status).to.equal(201);
    expect(keysOf(await f.get('site/articles/?limit=100'))).to.deep.equal([...listed, created.body.key]);
    expect((await f.get(`site/articles/${created.body.key}/`)).status).to.equal(200);
    expect((await s.api('DELETE', v1(s, `/collections/${f.articles}/resources/${created.body.key}/`))).status).to.equal(204);
    expect((await f.get(`site/articles/${created.body.key}/`)).status).to.equal(404);
    expect(keysOf(await f.get('site/articles/?limit=100'))).to.deep.equal(listed);
  });

  it('serves a change of a populated document in the answers that populated it', async () => {
    const path = `site/articles/${f.a[0]}/?populate=author`;
    expect((await f.get(path)).body.data.author.data.name).to.equal('Ann');
    await publish(f.authors, f.author, { name: 'Bea', company: `${f.companies}::${f.company}` });
    expect((await f.get(path)).body.data.author.data.name).to.equal('Bea');
  });

  it('follows routing changes: a new locale, CORS origins, an API that starts requiring credentials', async () => {
    const one = `site/articles/${f.a[3]}/`;
    expect(Object.keys((await f.get(one)).body.data.title)).to.not.include('fr');
    expect((await s.api('POST', v1(s, '/locales/'), { code: 'fr', name: 'fr' })).status).to.equal(201);
    expect(Object.keys((await f.get(one)).body.data.title)).to.include('fr');

    const origin = { origin: 'https://app.example' };
    expect((await f.get(one, origin)).headers.get('access-control-allow-origin')).to.equal(null);
    expect((await s.api('PUT', v1(s, `/api/${f.siteApi}/`), { name: 'site', prefix: 'site', cors_origins: ['https://app.example'] })).status).to.equal(200);
    for (let i = 0; i < 2; i++) {
      const r = await f.get(one, origin);
      expect(r.headers.get('access-control-allow-origin')).to.equal('https://app.example');
      expect(r.headers.get('vary')).to.equal('Origin');
    }
    expect((await f.get(one)).headers.get('access-control-allow-origin')).to.equal(null);

    expect((await s.api('PUT', v1(s, `/api/${f.siteApi}/`), { name: 'site', prefix: 'site', is_auth_required: true })).status).to.equal(200);
    const refused = await f.get(one);
    expect(refused.status).to.equal(401);
    expect(refused.body.error_code).to.equal('authentication_required');
    expect((await s.api('PUT', v1(s, `/api/${f.siteApi}/`), { name: 'site', prefix: 'site', is_auth_required: false })).status).to.equal(200);
    expect((await f.get(one)).status).to.equal(200);
  });

  it('keeps refusing what it refused: unknown parameters, keys and endpoints are answered by the full app', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await f.get(`site/articles/${f.a[0]}/?nope=1`)).body.error_code).to.equal('validation_error');
      expect((await f.get('site/articles/missing/')).body.error_code).to.equal('resource_not_found');
      expect((await f.get('site/nothing/')).body.error_code).to.equal('collection_not_found');
      expect((await f.get('nope/articles/')).body.error_code).to.equal('api_not_found');
    }
  });

  it('answers keys from served bytes only while they may read: a private API, a role without the collection, a deleted key', async () => {
    const e = v1(s, '');
    const privateApi = (await s.api('POST', `${e}/api/`, { name: 'Private', prefix: 'private', is_auth_required: true })).body.key;
    expect((await s.api('POST', `${e}/api/${privateApi}/collections/`, { folder: f.articles, allowed_methods: ['get_many', 'get_one'] })).status).to.equal(201);
    const newKey = async (role: string | null): Promise<{ key: string; public_key: string; secret_key: string }> =>
      (await s.api('POST', `${e}/permissions/delivery-api/api-keys/`, { role })).body;
    const role = (await s.api('POST', `${e}/permissions/delivery-api/roles/`, { name: 'elsewhere' })).body.key;
    await s.api('POST', `${e}/permissions/delivery-api/roles/${role}/permissions/batch/`, [
      { content_type: 'flux-apis', actions: ['read'], all_objects: true },
      { content_type: 'collections', actions: ['read'], all_objects: false, objects: [f.authors] },
    ]);
    const full = await newKey(null);
    const limited = await newKey(role);
    const token = (await s.api('POST', `${e}/permissions/delivery-api/api-keys/${full.key}/bearer-token/`)).body.bearer_token as string;
    const path = `private/articles/${f.a[0]}/`;
    const bearer = { authorization: `Bearer ${token}` };
    const first = await f.get(path, bearer);
    expect(first.status).to.equal(200);
    for (const headers of [bearer, { authorization: `Simple ${full.public_key}:${full.secret_key}` }, bearer]) {
      const again = await f.get(path, headers);
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
      expect(headersOf(again)).to.deep.equal(headersOf(first));
    }
    for (let i = 0; i < 2; i++) {
      expect((await f.get(path)).status).to.equal(401);
      expect((await f.get(path, { authorization: `Bearer ${token}x` })).status).to.equal(401);
      expect((await f.get(path, { authorization: `Simple ${full.public_key}:nope` })).status).to.equal(401);
      const denied = await f.get(path, { authorization: `Simple ${limited.public_key}:${limited.secret_key}` });
      expect(denied.status).to.equal(403);
      expect(denied.body.error_code).to.equal('access_denied');
    }
    expect((await s.api('DELETE', `${e}/permissions/delivery-api/api-keys/${full.key}/`)).status).to.equal(204);
    expect((await f.get(path, bearer)).status).to.equal(401);
  });

  it('refuses a remembered read once its environment is disabled', async () => {
    const org = (await s.api('GET', '/organizations/')).body[0].key;
    const project = (await s.api('GET', `/organizations/${org}/projects/`)).body.results[0].key;
    const path = `site/articles/${f.a[0]}/`;
    expect((await f.get(path)).status).to.equal(200);
    expect((await f.get(path)).status).to.equal(200);
    const off = await s.api('POST', `/organizations/${org}/projects/${project}/environments/${s.env}/toggle/`, { is_enabled: false });
    expect(off.status, JSON.stringify(off.body)).to.equal(200);
    const refused = await f.get(path);
    expect(refused.status).to.equal(403);
    expect(refused.body.error_code).to.equal('environment_disabled');
  });
});
