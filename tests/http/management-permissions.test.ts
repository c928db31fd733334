import { expect } from 'chai';
import { dateHeader, secureHeaders } from '../support/secure-signing.js';
import { startTestService, type TestService } from '../support/service.js';

type Key = { key: string; public_key: string; secret_key: string };

describe('management API keys: Secure signatures and role permissions', () => {
  let s: TestService;
  const keysPath = () => `/v1/${s.env}/permissions/management-api/api-keys/`;
  const rolesPath = () => `/v1/${s.env}/permissions/management-api/roles/`;
  const asKey = (k: Key, method: string, path: string, body?: unknown) =>
    s.api(method, path, body, { authorization: `Simple ${k.public_key}:${k.secret_key}` });
  const keyWithRole = async (permissions: object[] | null, full_access = false): Promise<Key> => {
    let role: string | null = null;
    if (permissions !== null) {
      role = (await s.api('POST', rolesPath(), { name: 'r', full_access })).body.key;
      if (permissions.length) expect((await s.api('POST', `${rolesPath()}${role}/permissions/batch/`, permissions)).status).to.equal(200);
    }
    return (await s.api('POST', keysPath(), { role })).body;
  };

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
  });
  after(async () => s?.stop());

  describe('Secure on the management interface', () => {
    it('accepts a signed request over path, body and Date and records the key as actor', async () => {
      const k = await keyWithRole(null);
      const path = `/v1/${s.env}/collections/tree/`;
      const body = JSON.stringify({ name: 'Signed', alias: 'signed' });
      const headers = secureHeaders(k.public_key, k.secret_key, `${s.base}${path}`, body);
      const r = await s.api('POST', path, body, headers);
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      const events = await s.api('GET', `/v1/${s.env}/events/?actor_type=apikey&actor_key=${k.key}`);
      expect(events.body.results[0]).to.deep.include({ entity_type: 'collection', event_type: 'create' });
      const list = await s.api('GET', `${path}?mode=children`, undefined, secureHeaders(k.public_key, k.secret_key, `${s.base}${path}`));
      expect(list.status).to.equal(200);
    });

    it('refuses a changed body, a replay, an old Date, a missing Date and a delivery key with 401 authentication_failed', async () => {
      const k = await keyWithRole(null);
      const path = `/v1/${s.env}/collections/tree/`;
      const body = JSON.stringify({ name: 'Once', alias: 'once' });
      const headers = secureHeaders(k.public_key, k.secret_key, `${s.base}${path}`, body);
      const tampered = await s.api('POST', path, body.replace('Once', 'Twice'), headers);
      expect(tampered.status).to.equal(401);
      expect(tampered.body.error_code).to.equal('authentication_failed');
      expect((await s.api('POST', path, body, headers)).status).to.equal(201);
      expect((await s.api('POST', path, body, headers)).status).to.equal(401);
      const old = secureHeaders(k.public_key, k.secret_key, `${s.base}${path}`, '', dateHeader(new Date(Date.now() - 20 * 60_000)));
      expect((await s.api('GET', path, undefined, old)).status).to.equal(401);
      expect((await s.api('GET', path, undefined, { authorization: old.authorization as string })).status).to.equal(401);
      const delivery: Key = (await s.api('POST', `/v1/${s.env}/permissions/delivery-api/api-keys/`, {})).body;
      expect((await s.api('GET', path, undefined, secureHeaders(delivery.public_key, delivery.secret_key, `${s.base}${path}`))).status).to.equal(401);
    });

    it('answers an unauthenticated Secure request with a broken body 401, an authenticated one 422', async () => {
      const k = await keyWithRole(null);
      const path = `/v1/${s.env}/collections/tree/`;
      const broken = '{"name":';
      const wrong = secureHeaders(k.public_key, k.secret_key, `${s.base}${path}`, '{}');
      expect((await s.api('POST', path, broken, wrong)).status).to.equal(401);
      const right = secureHeaders(k.public_key, k.secret_key, `${s.base}${path}`, broken);
      const r = await s.api('POST', path, broken, right);
      expect(r.status).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
    });
  });

  describe('403 permission_denied for keys whose role lacks the action', () => {
    it('lets a key without a role and a full-access role do everything', async () => {
      for (const k of [await keyWithRole(null), await keyWithRole([], true)]) {
        expect((await asKey(k, 'GET', `/v1/${s.env}/locales/`)).status).to.equal(200);
        expect((await asKey(k, 'POST', `/v1/${s.env}/api/`, { name: 'A', prefix: `p${k.key}` })).status).to.equal(201);
      }
    });

    it('allows exactly the actions a permission lists, per content type', async () => {
      const k = await keyWithRole([{ content_type: 'flux-apis', actions: ['read', 'create'] }, { content_type: 'locales', actions: ['read'] }]);
      expect((await asKey(k, 'GET', `/v1/${s.env}/api/`)).status).to.equal(200);
      const created = await asKey(k, 'POST', `/v1/${s.env}/api/`, { name: 'Mine', prefix: 'mine' });
      expect(created.status).to.equal(201);
      const put = await asKey(k, 'PUT', `/v1/${s.env}/api/${created.body.key}/`, { name: 'Renamed', prefix: 'mine' });
      expect(put.status).to.equal(403);
      expect(put.body).to.deep.equal({ message: put.body.message, error_code: 'permission_denied', detail: null });
      expect((await asKey(k, 'DELETE', `/v1/${s.env}/api/${created.body.key}/`)).status).to.equal(403);
      expect((await asKey(k, 'GET', `/v1/${s.env}/locales/`)).status).to.equal(200);
      expect((await asKey(k, 'POST', `/v1/${s.env}/locales/`, { name: 'German', code: 'de' })).status).to.equal(403);
      expect((await asKey(k, 'GET', `/v1/${s.env}/collections/tree/`)).status).to.equal(403);
      expect((await asKey(k, 'GET', `/v1/${s.env}/events/`)).status).to.equal(403);
      expect((await asKey(k, 'POST', keysPath(), {})).status).to.equal(403);
      expect((await s.api('GET', `/v1/${s.env}/api/${created.body.key}/`)).body.name).to.equal('Mine');
    });

    it('limits a permission without all_objects to the listed objects', async () => {
      const a = (await s.api('POST', `/v1/${s.env}/api/`, { name: 'A', prefix: 'obj-a' })).body.key;
      const b = (await s.api('POST', `/v1/${s.env}/api/`, { name: 'B', prefix: 'obj-b' })).body.key;
      const k = await keyWithRole([{ content_type: 'flux-apis', actions: ['read', 'update'], all_objects: false, objects: [a] }]);
      expect((await asKey(k, 'GET', `/v1/${s.env}/api/${a}/`)).status).to.equal(200);
      expect((await asKey(k, 'GET', `/v1/${s.env}/api/${b}/`)).status).to.equal(403);
      expect((await asKey(k, 'GET', `/v1/${s.env}/api/`)).status).to.equal(403);
    });

    it('refuses everything to a key whose role was deleted, and follows role edits at once', async () => {
      const k = await keyWithRole([{ content_type: 'locales', actions: ['read'] }]);
      const role = (await s.api('GET', `${keysPath()}${k.key}/`)).body.role;
      expect((await asKey(k, 'GET', `/v1/${s.env}/locales/`)).status).to.equal(200);
      await s.api('DELETE', `${rolesPath()}${role}/permissions/?content_type=locales`);
      expect((await asKey(k, 'GET', `/v1/${s.env}/locales/`)).status).to.equal(403);
      await s.api('POST', `${rolesPath()}${role}/permissions/`, { content_type: 'locales', actions: ['read'] });
      expect((await asKey(k, 'GET', `/v1/${s.env}/locales/`)).status).to.equal(200);
      await s.api('DELETE', `${rolesPath()}${role}/`);
      expect((await asKey(k, 'GET', `/v1/${s.env}/locales/`)).status).to.equal(403);
    });
  });
});
