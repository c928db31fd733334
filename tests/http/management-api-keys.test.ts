import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

describe('management API keys over HTTP', () => {
  let s: TestService;
  const path = () => `/v1/${s.env}/permissions/management-api/api-keys/`;

  before(async () => {
    s = await startTestService();
  });
  after(async () => s?.stop());

  it('creates a key (201) and shows its secret only in that response', async () => {
    const r = await s.api('POST', path(), { description: 'CI' });
    expect(r.status).to.equal(201);
    expect(r.body).to.have.all.keys('key', 'description', 'public_key', 'secret_key', 'role', 'environment', 'created_at', 'spend_cap_usd');
    expect(r.body).to.include({ description: 'CI', role: null, environment: s.env });
    expect(Buffer.from(r.body.public_key, 'base64')).to.have.length(33);
    const got = await s.api('GET', `${path()}${r.body.key}/`);
    expect(got.status).to.equal(200);
    expect(got.body).to.not.have.property('secret_key');
    expect(got.body).to.not.have.property('secret_hash');
    const list = await s.api('GET', path());
    expect(list.body.results.map((k: { key: string }) => k.key)).to.include(r.body.key);
  });

  it('authenticates a key sent as Bearer <public_key>:<secret_key> and records it as the actor', async () => {
    const created = await s.api('POST', path(), { description: 'writer' });
    const token = `${created.body.public_key}:${created.body.secret_key}`;
    const r = await s.api('POST', `/v1/${s.env}/collections/tree/`, { name: 'By key', alias: 'bykey' }, { authorization: `Bearer ${token}` });
    expect(r.status).to.equal(201);
    const events = await s.api('GET', `/v1/${s.env}/events/?actor_type=apikey&actor_key=${created.body.key}`);
    expect(events.body.results).to.have.length(1);
    expect(events.body.results[0]).to.deep.include({ entity_type: 'collection', actor_type: 'apikey' });
    expect(events.body.results[0].actor).to.deep.include({ key: created.body.key, description: 'writer', public_key: created.body.public_key, environment: s.env });
    const global = await s.api('GET', '/v1/global-events/', undefined, { authorization: `Bearer ${token}` });
    expect(global.status).to.equal(403);
    expect(global.body.error_code).to.equal('permission_denied');
  });

  it('refuses a wrong secret with 401 authentication_failed', async () => {
    const created = await s.api('POST', path(), {});
    const r = await s.api('GET', `/v1/${s.env}/collections/tree/`, undefined, { authorization: `Bearer ${created.body.public_key}:AAAA` });
    expect(r.status).to.equal(401);
    expect(r.body.error_code).to.equal('authentication_failed');
  });

  it('records manageapikey:create with its role_key', async () => {
    const events = await s.api('GET', `/v1/${s.env}/events/?entity_type=manageapikey`);
    expect(events.body.count).to.equal(3);
    expect(events.body.results[0].metadata).to.deep.equal({ role_key: null });
  });

  it('refuses invalid bodies and a key beyond the plan quota (403 plan_limit_exceeded, api_keys)', async () => {
    expect((await s.api('POST', path(), { description: 'x'.repeat(101) })).status).to.equal(422);
    expect((await s.api('POST', path(), { secret: 'x' })).status).to.equal(422);
    await s.api('POST', path(), {});
    await s.api('POST', path(), {});
    const sixth = await s.api('POST', path(), {});
    expect(sixth.status).to.equal(403);
    expect(sixth.body).to.deep.include({ error_code: 'plan_limit_exceeded' });
    expect(sixth.body.detail).to.deep.include({ entity: 'api_keys', current: 5, limit: 5 });
    const missing = await s.api('GET', `${path()}nope/`);
    expect(missing.status).to.equal(404);
  });
});
