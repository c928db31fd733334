import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

describe('management and delivery API keys: create, list, get, PUT, DELETE', () => {
  let s: TestService;
  const keys = (kind: string) => `/v1/${s.env}/permissions/${kind}/api-keys/`;

  before(async () => {
    s = await startTestService({ PLAN: 'starter' });
  });
  after(async () => s?.stop());

  it('creates a delivery key (201) with a P-256 pair, the secret once, and bearer_token_prefix null', async () => {
    const r = await s.api('POST', keys('delivery-api'), { description: 'site' });
    expect(r.status).to.equal(201);
    expect(r.body).to.have.all.keys('key', 'description', 'public_key', 'secret_key', 'role', 'environment', 'created_at', 'bearer_token_prefix', 'spend_cap_usd');
    expect(r.body).to.include({ description: 'site', role: null, environment: s.env, bearer_token_prefix: null });
    expect(Buffer.from(r.body.public_key, 'base64')).to.have.length(33);
    const got = await s.api('GET', `${keys('delivery-api')}${r.body.key}/`);
    expect(got.status).to.equal(200);
    expect(got.body).to.not.have.any.keys('secret_key', 'secret_hash', 'bearer_token_hash');
    expect(got.body.public_key).to.equal(r.body.public_key);
  });

  it('accepts flux-api as an alias of delivery-api and keeps the kinds apart', async () => {
    const r = await s.api('POST', keys('flux-api'), { description: 'alias' });
    expect(r.status).to.equal(201);
    expect((await s.api('GET', `${keys('delivery-api')}${r.body.key}/`)).status).to.equal(200);
    const asManagement = await s.api('GET', `${keys('management-api')}${r.body.key}/`);
    expect(asManagement.status).to.equal(404);
    const deliveryList = await s.api('GET', keys('flux-api'));
    expect(deliveryList.body.results.map((k: { key: string }) => k.key)).to.include(r.body.key);
    const managementList = await s.api('GET', keys('management-api'));
    expect(managementList.body.results.map((k: { key: string }) => k.key)).to.not.include(r.body.key);
    expect(managementList.body.results.every((k: object) => !('bearer_token_prefix' in k))).to.equal(true);
  });

  it('updates the description and role with PUT, keeping what is not sent', async () => {
    const created = await s.api('POST', keys('management-api'), { description: 'before' });
    const role = await s.api('POST', `/v1/${s.env}/permissions/management-api/roles/`, { name: 'Editors' });
    expect(role.status).to.equal(201);
    const put = await s.api('PUT', `${keys('management-api')}${created.body.key}/`, { role: role.body.key });
    expect(put.status).to.equal(200);
    expect(put.body).to.include({ description: 'before', role: role.body.key, public_key: created.body.public_key });
    const renamed = await s.api('PUT', `${keys('management-api')}${created.body.key}/`, { description: 'after' });
    expect(renamed.body).to.include({ description: 'after', role: role.body.key });
    expect(renamed.body).to.not.have.property('secret_key');
  });

  it('refuses a role that does not exist or is of the other kind (422), a bad body (422) and an unknown key (404)', async () => {
    const created = await s.api('POST', keys('delivery-api'), {});
    const managementRole = await s.api('POST', `/v1/${s.env}/permissions/management-api/roles/`, { name: 'M' });
    const wrongKind = await s.api('PUT', `${keys('delivery-api')}${created.body.key}/`, { role: managementRole.body.key });
    expect(wrongKind.status).to.equal(422);
    expect(wrongKind.body).to.deep.include({ error_code: 'validation_error', detail: { role: ['no such role'] } });
    const missing = await s.api('POST', keys('delivery-api'), { role: 'nope' });
    expect(missing.status).to.equal(422);
    expect((await s.api('PUT', `${keys('delivery-api')}${created.body.key}/`, { description: 5 })).status).to.equal(422);
    expect((await s.api('PUT', `${keys('delivery-api')}${created.body.key}/`, { secret_key: 'x' })).status).to.equal(422);
    const unknown = await s.api('PUT', `${keys('delivery-api')}nope/`, { description: 'x' });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error_code).to.equal('not_found');
    expect((await s.api('DELETE', `${keys('delivery-api')}nope/`)).status).to.equal(404);
  });

  it('deletes a key (204): gone from reads, its slot freed, audited with the snapshot', async () => {
    const created = await s.api('POST', keys('delivery-api'), { description: 'temp' });
    const del = await s.api('DELETE', `${keys('delivery-api')}${created.body.key}/`);
    expect(del.status).to.equal(204);
    expect((await s.api('GET', `${keys('delivery-api')}${created.body.key}/`)).status).to.equal(404);
    expect((await s.api('DELETE', `${keys('delivery-api')}${created.body.key}/`)).status).to.equal(404);
    const events = await s.api('GET', `/v1/${s.env}/events/?entity_type=deliveryapikey&entity_key=${created.body.key}`);
    expect(events.body.results.map((e: { event_type: string }) => e.event_type)).to.deep.equal(['delete', 'create']);
    expect(events.body.results[0].metadata).to.deep.equal({
      role_key: null,
      snapshot: { description: 'temp', public_key: created.body.public_key, role_key: null },
    });
  });

  it('counts management and delivery keys together against api_keys (403 plan_limit_exceeded) and frees slots on delete', async () => {
    const list = async (kind: string) => (await s.api('GET', keys(kind))).body.count as number;
    let count = (await list('management-api')) + (await list('delivery-api'));
    const made: string[] = [];
    while (count < 10) {
      const r = await s.api('POST', keys(count % 2 ? 'delivery-api' : 'management-api'), {});
      expect(r.status).to.equal(201);
      made.push(r.body.key);
      count += 1;
    }
    const over = await s.api('POST', keys('delivery-api'), {});
    expect(over.status).to.equal(403);
    expect(over.body.error_code).to.equal('plan_limit_exceeded');
    expect(over.body.detail).to.deep.include({ entity: 'api_keys', current: 10, limit: 10 });
    const victim = (await s.api('GET', keys('management-api'))).body.results[0].key;
    expect((await s.api('DELETE', `${keys('management-api')}${victim}/`)).status).to.equal(204);
    expect((await s.api('POST', keys('delivery-api'), {})).status).to.equal(201);
  });

  it('records manageapikey:update with the new role_key', async () => {
    const events = await s.api('GET', `/v1/${s.env}/events/?entity_type=manageapikey&event_type=update`);
    expect(events.body.count).to.be.greaterThan(0);
    expect(events.body.results.at(-1).metadata).to.have.all.keys('role_key');
  });
});
