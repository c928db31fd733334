import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

const nextMonth = (): string => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
};

const organizationOf = async (s: TestService): Promise<string> => (await s.api('GET', '/organizations/')).body[0].key;
const writesOf = async (s: TestService, org: string): Promise<number> => (await s.api('GET', `/organizations/${org}/usage/`)).body.current_usage.writes;
const newCollection = (s: TestService, alias: string) => s.api('POST', `/v1/${s.env}/collections/tree/`, { name: alias, alias });

describe('billing axes over HTTP (402)', () => {
  describe('a free organization whose writes allowance is used up', () => {
    let s: TestService;
    let org: string;
    before(async () => {
      // The bootstrap's four entities are the organization's first four writes.
      s = await startTestService({ PLAN: 'free', FREE_WRITES_PER_MONTH: '6' });
      org = await organizationOf(s);
    });
    after(async () => s?.stop());

    it('refuses every write with 402 plan_exhausted (axis writes) and serves reads; an upgrade lifts it', async () => {
      expect(await writesOf(s, org)).to.equal(4);
      expect((await newCollection(s, 'a')).status).to.equal(201);
      expect((await newCollection(s, 'b')).status).to.equal(201);
      const refused = await newCollection(s, 'c');
      expect(refused.status).to.equal(402);
      const detail = { axis: 'writes', window_resets_at: nextMonth(), upgrade_url: refused.body.detail.upgrade_url };
      expect(refused.body).to.deep.equal({ ...detail, message: refused.body.message, error_code: 'plan_exhausted', detail });
      expect(detail.upgrade_url).to.be.a('string').with.length.greaterThan(0);
      for (const [method, path, body] of [
        ['POST', `/v1/${s.env}/locales/`, { name: 'de', code: 'de' }],
        ['POST', `/v1/${s.env}/api/`, { name: 'A', prefix: 'a' }],
        ['PUT', `/organizations/${org}/`, { name: 'Renamed' }],
      ] as const) {
        expect((await s.api(method, path, body)).body.error_code, path).to.equal('plan_exhausted');
      }
      expect((await s.api('GET', `/v1/${s.env}/collections/tree/`)).body.count).to.equal(2);
      expect(await writesOf(s, org)).to.equal(6);

      expect((await s.api('POST', `/organizations/${org}/plan/starter/`, {})).status).to.equal(200);
      expect((await newCollection(s, 'c')).status).to.equal(201);
    });
  });

  describe('a free organization whose vector storage allowance is used up', () => {
    let s: TestService;
    before(async () => {
      s = await startTestService({ PLAN: 'free', FREE_VECTOR_STORAGE_BYTES: '0' });
    });
    after(async () => s?.stop());

    it('refuses writes with 402 plan_exhausted on the vector_storage axis', async () => {
      const refused = await newCollection(s, 'a');
      expect(refused.status).to.equal(402);
      expect(refused.body).to.include({ error_code: 'plan_exhausted', axis: 'vector_storage', window_resets_at: nextMonth() });
    });
  });

  describe('a paid organization at its spend cap', () => {
    let s: TestService;
    let org: string;
    before(async () => {
      s = await startTestService({ PLAN: 'pro', WRITE_PRICE_USD: '0.25', SPEND_CAP_USD: '1.25' });
      org = await organizationOf(s);
    });
    after(async () => s?.stop());

    it('refuses every write with 402 spend_cap_reached (cap_usd, cycle_resets_at, raise_cap_url)', async () => {
      expect(await writesOf(s, org)).to.equal(4);
      expect((await newCollection(s, 'a')).status).to.equal(201);
      const refused = await newCollection(s, 'b');
      expect(refused.status).to.equal(402);
      const detail = { cap_usd: 1.25, cycle_resets_at: nextMonth(), raise_cap_url: refused.body.detail.raise_cap_url };
      expect(refused.body).to.deep.equal({ ...detail, message: refused.body.message, error_code: 'spend_cap_reached', detail });
      const project = await s.api('POST', `/organizations/${org}/projects/`, { name: 'More' });
      expect(project.status).to.equal(402);
      expect(project.body.error_code).to.equal('spend_cap_reached');
      expect((await s.api('GET', `/organizations/${org}/projects/`)).body.count).to.equal(1);
      const usage = (await s.api('GET', `/organizations/${org}/usage/`)).body;
      expect(usage.units).to.include({ remained: 0, unit_cost: 0.25 });
    });
  });
});
