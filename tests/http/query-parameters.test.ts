import { expect } from 'chai';
import { QUERY_PARAMETERS } from '../../infra/http/query-parameters.js';
import { routeTable } from '../../infra/http/route-table.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type Reply, type TestService } from '../support/service.js';

/** An unknown query parameter on a management route is 422 validation_error naming it, and writes nothing (docs/decisions/0334). */
describe('HTTP: management routes take only their own query parameters', function () {
  this.timeout(30_000);
  let s: TestService;
  let books: string;

  const unknownRefused = (r: Reply, name: string) => {
    expect(r.status, JSON.stringify(r.body)).to.equal(422);
    expect(r.body.error_code).to.equal('validation_error');
    expect(r.body.detail).to.have.property(name);
  };
  const count = async (): Promise<number> => (await s.api('GET', v1(s, `/collections/${books}/resources/`))).body.count as number;

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    books = await collectionWithSchema(s, 'books');
  });
  after(() => s?.stop());

  it('refuses POST resources/?mode=draft (mode belongs in the body) and publishes nothing', async () => {
    const before = await count();
    unknownRefused(await s.api('POST', v1(s, `/collections/${books}/resources/?mode=draft`), { data: { title: 'Dune' } }), 'mode');
    expect(await count()).to.equal(before);
    const created = await s.api('POST', v1(s, `/collections/${books}/resources/`), { data: { title: 'Dune' } });
    expect(created.status).to.equal(201);
    unknownRefused(await s.api('PUT', v1(s, `/collections/${books}/resources/${created.body.key}/?publish=1`), { name: 'x' }), 'publish');
    unknownRefused(await s.api('DELETE', v1(s, `/collections/${books}/resources/${created.body.key}/?force=true`)), 'force');
    expect(await count()).to.equal(before + 1);
  });

  it('refuses unknown parameters on reads, lists and the organization routes alike, naming each', async () => {
    const r = await s.api('GET', v1(s, '/locales/?limit=5&sort=code&order=asc'));
    unknownRefused(r, 'sort');
    expect(Object.keys(r.body.detail)).to.deep.equal(['sort', 'order']);
    unknownRefused(await s.api('GET', v1(s, '/api/?limt=5')), 'limt');
    unknownRefused(await s.api('GET', `/organizations/?x=1`), 'x');
    unknownRefused(await s.api('GET', v1(s, '/permissions/management-api/roles/?content_type=x')), 'content_type');
  });

  it('answers an unauthenticated request with an unknown parameter 401, not 422', async () => {
    const r = await s.api('GET', v1(s, '/api/?nope=1'), undefined, { authorization: 'Bearer nope' });
    expect(r.status).to.equal(401);
  });

  it('takes every parameter the product client library sends', async () => {
    const tree = await s.api('GET', v1(s, `/collections/tree/?key=${books}&mode=children&limit=10&offset=0`));
    expect(tree.status, JSON.stringify(tree.body)).to.equal(200);
    expect((await s.api('GET', v1(s, `/folders/tree/folder/?key=${books}`))).status).to.equal(200);
    expect((await s.api('GET', v1(s, `/collections/tree/collection/?path=books`))).status).to.equal(200);
    expect((await s.api('PUT', v1(s, `/collections/tree/collection/?key=${books}`), { name: 'Books' })).status).to.equal(200);
    const versions = await s.api('GET', v1(s, `/collections/${books}/model/versions/?include_schema=false&ordering=-created_at&limit=1`));
    expect(versions.status).to.equal(200);
    const version = versions.body.results[0].key as string;
    expect((await s.api('GET', v1(s, `/collections/${books}/model/versions/${version}/?include_schema=true`))).status).to.equal(200);
    expect((await s.api('POST', v1(s, `/collections/${books}/model/versions/?copy_from=${version}`), {})).status).to.equal(201);
    expect((await s.api('GET', v1(s, `/collections/${books}/model/versions/${version}/schema/tree/field/?path=title`))).status).to.equal(200);
    expect((await s.api('GET', v1(s, `/collections/${books}/model/versions/${version}/schema/tree/?mode=children`))).status).to.equal(200);
    const upsert = await s.api('PUT', v1(s, `/folders/${books}/resources/?external_id=e1&component=${books}`), { data: { title: 'Up' } });
    expect(upsert.status, JSON.stringify(upsert.body)).to.be.oneOf([200, 201]);
    expect((await s.api('POST', v1(s, `/folders/${books}/resources/?component=${books}`), { data: { title: 'C' } })).status).to.equal(201);
    const role = (await s.api('POST', v1(s, '/permissions/flux-api/roles/'), { name: 'r' })).body.key as string;
    expect((await s.api('POST', v1(s, `/permissions/flux-api/roles/${role}/permissions/`), { content_type: 'collections', actions: ['read'] })).status).to.equal(201);
    expect((await s.api('GET', v1(s, `/permissions/flux-api/roles/${role}/permissions/objects/?content_type=collections`))).status).to.equal(200);
    expect((await s.api('DELETE', v1(s, `/permissions/flux-api/roles/${role}/permissions/?content_type=collections`))).status).to.equal(204);
    const events = await s.api('GET', v1(s, `/events/?entity_type=resource&event_type=create&ordering=timestamp&limit=1`));
    expect(events.status).to.equal(200);
  });

  it('declares parameters only for routes that exist', () => {
    const routes = routeTable(s.service.apps.management);
    for (const entry of QUERY_PARAMETERS) {
      expect(routes.some((r) => r.method === entry.method && r.path.endsWith(entry.path)), `${entry.method} ${entry.path}`).to.equal(true);
    }
  });
});
