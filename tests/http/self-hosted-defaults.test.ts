import { expect } from 'chai';
import { loadConfig } from '../../infra/config.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * More creates than Enterprise's default (Pro's) 1,200 requests a minute and the free plan's 120
 * allow; SELF_HOSTED_RESOURCES=10000 runs the figure (79 s on a loaded 2-core machine).
 */
const RESOURCES = Number(process.env.SELF_HOSTED_RESOURCES || 2_000);
const IN_FLIGHT = 16;

/** The first start's organization on the defaults: the operator's own, on Enterprise with no quota and no rate limit (docs/decisions/0348). */
describe('self-hosting defaults: the organization created at first start', function () {
  this.timeout(300_000);
  let s: TestService;
  const org = () => `/organizations/${(s.service.bootstrap as { organization: string }).organization}/`;
  const roles = () => v1(s, '/permissions/management-api/roles/');

  // PLAN and RATE_LIMIT_PER_MINUTE empty: their defaults, as `npm start` has them.
  before(async () => {
    s = await startTestService({ PLAN: '', RATE_LIMIT_PER_MINUTE: '' });
  });
  after(async () => s?.stop());

  it('is on Enterprise by default, whose custom values are no limits: GET plan shows null for every quota and the rate limit', async () => {
    expect(loadConfig({}).plan).to.equal('enterprise');
    expect(loadConfig({}).rateLimit).to.equal('plan');
    const plan = await s.api('GET', `${org()}plan/`);
    expect(plan.status).to.equal(200);
    expect(plan.body.active_plan.code).to.equal('enterprise');
    expect(plan.body.active_plan.limits).to.include({ projects: null, roles_max_count: null, api_keys_max_count: null, requests_per_minute: null, folders: null });
    // The plan list keeps the specification's values: Enterprise defaults to Pro's.
    const listed = (await s.api('GET', '/plans/')).body.find((p: { code: string }) => p.code === 'enterprise');
    expect(listed.limits).to.include({ roles_max_count: 20, requests_per_minute: 1200, projects: 10 });
  });

  it(`takes ${RESOURCES.toLocaleString('en')} resource creates through the API with no 429 and no quota refusal, and its team creates roles`, async () => {
    const articles = await collectionWithSchema(s, 'articles');
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < RESOURCES) {
        const i = next++;
        const r = await s.api('POST', v1(s, `/collections/${articles}/resources/?wait=false`), { data: { title: `Article ${i}` } });
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    expect(Object.fromEntries(statuses)).to.satisfy((seen: Record<number, number>) => Object.keys(seen).every((code) => code === '201' || code === '202'));
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).to.equal(RESOURCES);
    for (let i = 0; i < 25; i++) expect((await s.api('POST', roles(), { name: `Team ${i}` })).status, `role ${i}`).to.equal(201);
  });

  it('keeps the specification exactly once it changes plan: on free, roles are refused (0) and the plan shows the free values; back on Enterprise, no limits again', async () => {
    expect((await s.api('POST', `${org()}plan/free/`)).status).to.equal(200);
    const free = await s.api('GET', `${org()}plan/`);
    expect(free.body.active_plan.limits).to.include({ projects: 1, roles_max_count: 0, requests_per_minute: 120 });
    const refused = await s.api('POST', roles(), { name: 'One more' });
    expect(refused.status).to.equal(403);
    expect(refused.body.error_code).to.equal('plan_limit_exceeded');
    expect((await s.api('POST', `${org()}plan/pro/`)).status).to.equal(200);
    expect((await s.api('GET', `${org()}plan/`)).body.active_plan.limits).to.include({ roles_max_count: 20, requests_per_minute: 1200 });
    expect((await s.api('POST', `${org()}plan/enterprise/`)).status).to.equal(200);
    expect((await s.api('GET', `${org()}plan/`)).body.active_plan.limits).to.include({ roles_max_count: null, requests_per_minute: null });
    expect((await s.api('POST', roles(), { name: 'One more' })).status).to.equal(201);
  });
});

describe('self-hosting defaults: PLAN=free for a hosted service', () => {
  let s: TestService;
  before(async () => {
    s = await startTestService({ PLAN: 'free', RATE_LIMIT_PER_MINUTE: '' });
  });
  after(async () => s?.stop());

  it('puts the first organization on the free plan with the specification values: no roles, 120 requests a minute', async () => {
    const plan = await s.api('GET', `/organizations/${(s.service.bootstrap as { organization: string }).organization}/plan/`);
    expect(plan.body.active_plan).to.include({ code: 'free' });
    expect(plan.body.active_plan.limits).to.include({ roles_max_count: 0, requests_per_minute: 120, projects: 1 });
    const refused = await s.api('POST', v1(s, '/permissions/management-api/roles/'), { name: 'Editors' });
    expect(refused.status).to.equal(403);
    expect(refused.body.error_code).to.equal('plan_limit_exceeded');
  });
});
