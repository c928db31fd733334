import { expect } from 'chai';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type Reply, type TestService } from '../support/service.js';

type Key = { key: string; public_key: string; secret_key: string; spend_cap_usd: number | null };

/** "A spend cap can be set on the key" (specification, Authentication): docs/decisions/0163. */
describe('a spend cap of its own on an API key', () => {
  let s: TestService;
  let folder: string;
  const keys = (kind: string) => v1(s, `/permissions/${kind}/api-keys/`);
  const simple = (k: Key) => ({ authorization: `Simple ${k.public_key}:${k.secret_key}` });
  const newCollection = (k: Key, alias: string) => s.api('POST', v1(s, '/collections/tree/'), { name: alias, alias }, simple(k));
  const deliveryWrite = async (k: Key, title: string): Promise<Reply> => {
    const response = await fetch(`${s.delivery}/site/notes/`, {
      method: 'POST',
      headers: { ...simple(k), 'content-type': 'application/json' },
      body: JSON.stringify({ data: { title } }),
    });
    return { status: response.status, body: await response.json(), headers: response.headers };
  };
  const expectCapped = (r: Reply, cap: number, kind: string, key: string) => {
    expect(r.status, JSON.stringify(r.body)).to.equal(402);
    const detail = { cap_usd: cap, cycle_resets_at: r.body.detail.cycle_resets_at, raise_cap_url: `/v1/${s.env}/permissions/${kind}/api-keys/${key}/` };
    expect(r.body).to.deep.equal({ ...detail, message: r.body.message, error_code: 'spend_cap_reached', detail });
    expect(Date.parse(detail.cycle_resets_at)).to.be.greaterThan(Date.now());
  };

  before(async () => {
    // One write costs 1 USD; the organization itself has no cap.
    s = await startTestService({ PLAN: 'starter', WRITE_PRICE_USD: '1' });
    folder = await collectionWithSchema(s, 'notes');
    const api = (await s.api('POST', v1(s, '/api/'), { name: 'Site', prefix: 'site' })).body.key;
    expect((await s.api('POST', v1(s, `/api/${api}/collections/`), { folder, allowed_methods: ['get_many', 'get_one', 'create'] })).status).to.equal(201);
  });
  after(async () => s?.stop());

  it('takes spend_cap_usd on create and PUT, shows it on reads, keeps it when a PUT leaves it out, and refuses bad values', async () => {
    const created = await s.api('POST', keys('management-api'), { description: 'capped', spend_cap_usd: 2.5 });
    expect(created.status).to.equal(201);
    expect(created.body.spend_cap_usd).to.equal(2.5);
    const plain = await s.api('POST', keys('delivery-api'), {});
    expect(plain.body.spend_cap_usd).to.equal(null);
    expect((await s.api('GET', `${keys('management-api')}${created.body.key}/`)).body.spend_cap_usd).to.equal(2.5);
    expect((await s.api('PUT', `${keys('management-api')}${created.body.key}/`, { description: 'renamed' })).body).to.include({ spend_cap_usd: 2.5, description: 'renamed' });
    expect((await s.api('PUT', `${keys('management-api')}${created.body.key}/`, { spend_cap_usd: null })).body.spend_cap_usd).to.equal(null);
    for (const bad of [-1, '5', true, 1e10]) {
      const r = await s.api('POST', keys('delivery-api'), { spend_cap_usd: bad });
      expect(r.status, String(bad)).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
      expect(r.body.detail).to.have.property('spend_cap_usd');
      expect((await s.api('PUT', `${keys('delivery-api')}${plain.body.key}/`, { spend_cap_usd: bad })).status).to.equal(422);
    }
    expect((await s.api('GET', `${keys('delivery-api')}${plain.body.key}/`)).body.spend_cap_usd).to.equal(null);
  });

  it('refuses a management key\'s writes with 402 once its own writes reach its cap, and lets it go on when the cap is raised', async () => {
    const k: Key = (await s.api('POST', keys('management-api'), { spend_cap_usd: 2 })).body;
    const uncapped: Key = (await s.api('POST', keys('management-api'), {})).body;
    const count = async () => (await s.api('GET', v1(s, '/collections/tree/'))).body.count as number;
    expect((await newCollection(k, 'one')).status).to.equal(201);
    expect((await newCollection(k, 'two')).status).to.equal(201);
    const before = await count();
    expectCapped(await newCollection(k, 'three'), 2, 'management-api', k.key);
    // Nothing was written, reads go on, other keys and the administrator still write.
    expect(await count()).to.equal(before);
    expect((await s.api('GET', v1(s, '/locales/'), undefined, simple(k))).status).to.equal(200);
    expect((await newCollection(uncapped, 'four')).status).to.equal(201);
    expect((await s.api('POST', v1(s, '/collections/tree/'), { name: 'five', alias: 'five' })).status).to.equal(201);
    expect((await s.api('PUT', `${keys('management-api')}${k.key}/`, { spend_cap_usd: 3 })).status).to.equal(200);
    expect((await newCollection(k, 'three')).status).to.equal(201);
    expectCapped(await newCollection(k, 'six'), 3, 'management-api', k.key);
  });

  it('refuses a delivery key\'s writes the same way', async () => {
    const k: Key = (await s.api('POST', keys('delivery-api'), { spend_cap_usd: 1 })).body;
    expect((await deliveryWrite(k, 'first')).status).to.equal(201);
    expectCapped(await deliveryWrite(k, 'second'), 1, 'delivery-api', k.key);
    const list = await fetch(`${s.delivery}/site/notes/`, { headers: simple(k) });
    expect(list.status).to.equal(200);
    expect(((await list.json()) as { results: unknown[] }).results).to.have.length(1);
  });
});

describe('a spend cap of its own on an API key, on the free plan', () => {
  let s: TestService;
  before(async () => {
    s = await startTestService({ PLAN: 'free', WRITE_PRICE_USD: '1' });
  });
  after(async () => s?.stop());

  it('does not apply: free writes cost nothing (the plan\'s allowance bounds them)', async () => {
    const k: Key = (await s.api('POST', v1(s, '/permissions/management-api/api-keys/'), { spend_cap_usd: 0 })).body;
    const r = await s.api('POST', v1(s, '/collections/tree/'), { name: 'a', alias: 'a' }, { authorization: `Simple ${k.public_key}:${k.secret_key}` });
    expect(r.status).to.equal(201);
  });
});
