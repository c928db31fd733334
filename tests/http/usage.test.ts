import { expect } from 'chai';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

describe('organization usage over HTTP', () => {
  let s: TestService;
  let org: string;
  const usage = async () => {
    const r = await s.api('GET', `/organizations/${org}/usage/`);
    expect(r.status).to.equal(200);
    return r.body;
  };

  before(async () => {
    s = await startTestService({ PLAN: 'free', RESOURCE_LIMIT: '50' });
    org = (await s.api('GET', '/organizations/')).body[0].key;
  });
  after(async () => s?.stop());

  it('answers the product\'s usage object', async () => {
    const u = await usage();
    expect(u).to.have.all.keys('units', 'storage', 'usage', 'current_usage');
    expect(u.units).to.have.all.keys('remained', 'unit_cost', 'allow_negative', 'negative_limit');
    expect(u.storage).to.have.all.keys('data_storage', 'vector_storage');
    expect(u.usage).to.have.all.keys('projects', 'resources', 'users');
    for (const counter of Object.values(u.usage)) expect(counter).to.have.all.keys('max', 'current');
    expect(u.current_usage).to.include.all.keys('api_requests', 'embedding_tokens');
    expect(u.usage.projects).to.deep.equal({ max: 1, current: 1 });
    expect(u.usage.resources).to.deep.equal({ max: 50, current: 0 });
    expect(u.usage.users).to.deep.equal({ max: null, current: 1 });
    expect(u.storage).to.deep.equal({ data_storage: 0, vector_storage: 0 });
  });

  it('follows resources, their stored bytes, writes and API requests as they happen', async () => {
    const before = await usage();
    const folder = await collectionWithSchema(s, 'articles');
    const created = [];
    for (const title of ['one', 'two', 'three']) {
      const r = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title } });
      expect(r.status).to.equal(201);
      created.push(r.body.key as string);
    }
    const after = await usage();
    expect(after.usage.resources.current).to.equal(3);
    expect(after.storage.data_storage).to.be.greaterThan(0);
    expect(after.current_usage.writes).to.be.greaterThan(before.current_usage.writes + 3);
    expect(after.units.remained).to.equal(before.units.remained - (after.current_usage.writes - before.current_usage.writes));
    expect(after.current_usage.api_requests).to.be.greaterThan(before.current_usage.api_requests + 5);

    expect((await s.api('DELETE', v1(s, `/collections/${folder}/resources/${created[0]}/`))).status).to.equal(204);
    const deleted = await usage();
    expect(deleted.usage.resources.current).to.equal(2);
    expect(deleted.storage.data_storage).to.be.lessThan(after.storage.data_storage).and.greaterThan(0);
  });

  it('counts projects of the organization', async () => {
    await s.api('POST', `/organizations/${org}/plan/starter/`, {});
    expect((await s.api('POST', `/organizations/${org}/projects/`, { name: 'Two' })).status).to.equal(201);
    expect((await usage()).usage.projects).to.deep.equal({ max: 3, current: 2 });
  });
});
