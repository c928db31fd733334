import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

const CONCURRENT = 32;

describe('plans and the projects and environments quotas over HTTP', () => {
  let s: TestService;
  let org: string;
  const orgPath = (path = '') => `/organizations/${org}/${path}`;
  const projectCount = async () => (await s.api('GET', orgPath('projects/'))).body.count as number;

  before(async () => {
    s = await startTestService({ PLAN: 'free' });
    org = (await s.api('GET', '/organizations/')).body[0].key;
  });
  after(async () => s?.stop());

  it('lists the four plans as a bare array of plan objects, enterprise with the pro values', async () => {
    const r = await s.api('GET', '/plans/');
    expect(r.status).to.equal(200);
    expect(r.body.map((p: { code: string }) => p.code)).to.deep.equal(['free', 'starter', 'pro', 'enterprise']);
    for (const plan of r.body) {
      expect(plan).to.have.all.keys('code', 'name', 'price', 'from', 'to', 'transferred', 'limits');
      expect(plan.limits).to.include.all.keys(
        'units_included', 'projects', 'environments', 'folders', 'resources', 'users', 'components', 'allow_negative', 'negative_limit', 'unit_cost',
        'api_keys_max_count', 'roles_max_count', 'locales_max_count', 'schemas_max_count', 'schemas_fields_max_count', 'flux_api_max_count',
        'max_component_inheritance_depth',
      );
    }
    const [free, starter, pro, enterprise] = r.body;
    expect(free.limits).to.include({ projects: 1, environments: 2, folders: 50, flux_api_max_count: 5, locales_max_count: 2, api_keys_max_count: 5, roles_max_count: 0, requests_per_minute: 120 });
    expect(starter.limits).to.include({ projects: 3, environments: 3, folders: 200, flux_api_max_count: 10, locales_max_count: 5, api_keys_max_count: 10, roles_max_count: 5, requests_per_minute: 600 });
    expect(pro.limits).to.include({ projects: 10, environments: 10, folders: 1000, flux_api_max_count: 50, locales_max_count: null, api_keys_max_count: 50, roles_max_count: 20, requests_per_minute: 1200 });
    expect(pro.limits).to.include({ components: 5000, schemas_max_count: 1000, schemas_fields_max_count: 1000, max_component_inheritance_depth: 2 });
    expect(enterprise.limits).to.deep.equal(pro.limits);
  });

  it('shows the active plan as {active_plan, next_plan}', async () => {
    const r = await s.api('GET', orgPath('plan/'));
    expect(r.status).to.equal(200);
    expect(r.body).to.have.all.keys('active_plan', 'next_plan');
    expect(r.body.active_plan).to.include({ code: 'free', name: 'Free' });
    expect(r.body.active_plan.from).to.be.a('string');
    expect(r.body.next_plan).to.equal(null);
  });

  it('refuses a second project on free with 403 plan_limit_exceeded and its detail', async () => {
    const r = await s.api('POST', orgPath('projects/'), { name: 'Second' });
    expect(r.status).to.equal(403);
    expect(r.body).to.deep.equal({
      message: r.body.message,
      error_code: 'plan_limit_exceeded',
      detail: { entity: 'projects', current: 1, limit: 1, upgrade_url: r.body.detail.upgrade_url },
    });
    expect(r.body.detail.upgrade_url).to.be.a('string').with.length.greaterThan(0);
    expect(await projectCount()).to.equal(1);
  });

  it('refuses an unknown plan code with 422 and switches plans with a customer:update audit entry', async () => {
    const bad = await s.api('POST', orgPath('plan/gold/'), {});
    expect(bad.status).to.equal(422);
    expect(bad.body.error_code).to.equal('validation_error');
    const r = await s.api('POST', orgPath('plan/starter/'), {});
    expect(r.status).to.equal(200);
    expect(r.body.active_plan.code).to.equal('starter');
    expect((await s.api('GET', orgPath('plan/'))).body.active_plan.code).to.equal('starter');
    const [entry] = (await s.api('GET', `/v1/global-events/?entity_type=customer&event_type=update&entity_key=${org}`)).body.results;
    expect(entry.metadata).to.deep.equal({ action: 'change_plan', plan: 'starter', previous_plan: 'free' });
  });

  it(`ends ${CONCURRENT} concurrent project creates at exactly the quota`, async () => {
    await s.api('POST', orgPath('plan/pro/'), {});
    const replies = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => s.api('POST', orgPath('projects/'), { name: `P${i}` })));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((status) => status === 201)).to.have.length(9);
    expect(statuses.filter((status) => status === 403)).to.have.length(CONCURRENT - 9);
    for (const refused of replies.filter((r) => r.status === 403)) expect(refused.body.detail).to.include({ entity: 'projects', current: 10, limit: 10 });
    expect(await projectCount()).to.equal(10);
  });

  it(`ends ${CONCURRENT} concurrent environment creates at exactly the project's quota`, async () => {
    const project = (await s.api('GET', orgPath('projects/'))).body.results[1].key;
    const path = orgPath(`projects/${project}/environments/`);
    const replies = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => s.api('POST', path, { name: `E${i}` })));
    expect(replies.filter((r) => r.status === 201)).to.have.length(9);
    const refused = replies.filter((r) => r.status === 403);
    expect(refused).to.have.length(CONCURRENT - 9);
    expect(refused[0]!.body.detail).to.include({ entity: 'environments', current: 10, limit: 10 });
    expect((await s.api('GET', path)).body).to.have.length(10);
  });

  it('a downgrade keeps every existing project and environment and refuses new ones; deletes free slots', async () => {
    const r = await s.api('POST', orgPath('plan/starter/'), {});
    expect(r.body.active_plan.code).to.equal('starter');
    expect(await projectCount()).to.equal(10);
    const refused = await s.api('POST', orgPath('projects/'), { name: 'Eleventh' });
    expect(refused.body.detail).to.include({ entity: 'projects', current: 10, limit: 3 });
    const projects = (await s.api('GET', orgPath('projects/'))).body.results;
    const full = projects[1].key;
    expect((await s.api('POST', orgPath(`projects/${full}/environments/`), { name: 'More' })).body.detail).to.include({ entity: 'environments', current: 10, limit: 3 });
    for (const p of projects.slice(2)) expect((await s.api('DELETE', orgPath(`projects/${p.key}/`))).status).to.equal(204);
    expect(await projectCount()).to.equal(2);
    expect((await s.api('POST', orgPath('projects/'), { name: 'Third' })).status).to.equal(201);
    expect((await s.api('POST', orgPath('projects/'), { name: 'Fourth' })).body.detail).to.include({ entity: 'projects', current: 3, limit: 3 });
  });

  it('a downgrade applies the lower quota to environment-scoped entities too (locales)', async () => {
    await s.api('POST', orgPath('plan/starter/'), {});
    for (const code of ['de', 'fr', 'it']) expect((await s.api('POST', `/v1/${s.env}/locales/`, { name: code, code })).status).to.equal(201);
    await s.api('POST', orgPath('plan/free/'), {});
    expect((await s.api('GET', `/v1/${s.env}/locales/`)).body).to.have.lengthOf(4);
    const r = await s.api('POST', `/v1/${s.env}/locales/`, { name: 'es', code: 'es' });
    expect(r.status).to.equal(403);
    expect(r.body.detail).to.include({ entity: 'locales', current: 4, limit: 2 });
  });
});
