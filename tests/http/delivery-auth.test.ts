import { expect } from 'chai';
import { CommandBus } from '../../commands/command-bus.js';
import { createApiKey } from '../../commands/api-keys.js';
import type { EventStore } from '../../commands/ports.js';
import { bootstrap } from '../../commands/tenancy.js';
import { WWW_AUTHENTICATE } from '../../read-api/delivery/auth.js';
import { dateHeader, negateS, secureHeaders } from '../support/secure-signing.js';
import { startTestService, type Reply, type TestService } from '../support/service.js';

type Key = { key: string; public_key: string; secret_key: string };

describe('delivery authentication: every scheme times every failure cause', () => {
  let s: TestService;
  let store: EventStore;
  let url: string;
  let item: string;
  let resource: string;
  const keys: Record<string, Key> = {};
  const bearer: Record<string, string> = {};

  const send = async (target: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<Reply> => {
    const response = await fetch(target, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
  };
  const expect401 = (r: Reply) => {
    expect(r.status, JSON.stringify(r.body)).to.equal(401);
    expect(r.body).to.deep.equal({ message: r.body.message, error_code: 'authentication_required', detail: null });
    expect(r.body.message).to.be.a('string');
    expect(r.headers.get('www-authenticate')).to.equal('Simple realm="delivery-api", Secure realm="delivery-api"');
  };
  const simple = (k: Key) => ({ authorization: `Simple ${k.public_key}:${k.secret_key}` });
  const newKey = async (role: string | null = null): Promise<Key> => (await s.api('POST', `/v1/${s.env}/permissions/delivery-api/api-keys/`, { role })).body;
  const role = async (permissions: object[]) => {
    const r = (await s.api('POST', `/v1/${s.env}/permissions/delivery-api/roles/`, { name: 'r' })).body.key as string;
    await s.api('POST', `/v1/${s.env}/permissions/delivery-api/roles/${r}/permissions/batch/`, permissions);
    return r;
  };
  const issue = async (k: Key) => (await s.api('POST', `/v1/${s.env}/permissions/delivery-api/api-keys/${k.key}/bearer-token/`)).body.bearer_token as string;

  before(async () => {
    s = await startTestService({ PLAN: 'starter' }, undefined, { wrapEventStore: (inner) => (store = inner) });
    const e = `/v1/${s.env}`;
    const c = (await s.api('POST', `${e}/collections/tree/`, { name: 'Articles', alias: 'articles' })).body.key;
    const v = (await s.api('POST', `${e}/collections/${c}/model/versions/`, { name: 'v1' })).body.key;
    await s.api('POST', `${e}/collections/${c}/model/versions/${v}/schema/tree/`, { key: 'title', name: 'Title', type: 'string', required: true });
    await s.api('POST', `${e}/collections/${c}/model/versions/${v}/publish/`, {});
    const api = (await s.api('POST', `${e}/api/`, { name: 'Private', prefix: 'private', is_auth_required: true })).body.key;
    await s.api('POST', `${e}/api/${api}/collections/`, { folder: c, allowed_methods: ['get_many', 'get_one'] });
    const other = (await s.api('POST', `${e}/api/`, { name: 'Other', prefix: 'other' })).body.key;
    resource = (await s.api('POST', `${e}/collections/${c}/resources/`, { data: { title: 'Hello' } })).body.key;
    url = `${s.delivery}/private/articles/`;
    item = `${url}${resource}/`;
    keys.full = await newKey();
    keys.reader = await newKey(await role([{ content_type: 'flux-apis', actions: ['read'], all_objects: false, objects: [api] }]));
    keys.elsewhere = await newKey(await role([{ content_type: 'flux-apis', actions: ['read'], all_objects: false, objects: [other] }]));
    keys.noCollection = await newKey(await role([
      { content_type: 'flux-apis', actions: ['read'], all_objects: true },
      { content_type: 'collections', actions: ['read'], all_objects: false, objects: ['another'] },
    ]));
    keys.deleted = await newKey();
    keys.management = (await s.api('POST', `${e}/permissions/management-api/api-keys/`, {})).body;
    keys.orphan = await newKey(await role([{ content_type: 'flux-apis', actions: ['read'], all_objects: true }]));
    for (const name of ['full', 'reader', 'elsewhere', 'deleted', 'orphan']) bearer[name] = await issue(keys[name] as Key);
    await s.api('DELETE', `${e}/permissions/delivery-api/api-keys/${keys.deleted!.key}/`);
    const orphanRole = (await s.api('GET', `${e}/permissions/delivery-api/api-keys/${keys.orphan!.key}/`)).body.role;
    expect((await s.api('DELETE', `${e}/permissions/delivery-api/roles/${orphanRole}/`)).status).to.equal(204);
    // A key of another environment (another organization on the same service).
    const bus = new CommandBus(store);
    const now = new Date().toISOString();
    const other2 = await bootstrap(bus, { plan: 'starter', email: 'x@localhost', now });
    const foreign = await createApiKey(bus, { env: other2.environment, now, metadata: { actor_type: 'user', actor: null, ip_address: null, referer: null, timestamp: now } }, { kind: 'delivery', description: '', role: null });
    await s.service.projections.waitFor(foreign.position, 5000);
    keys.foreign = foreign;
  });
  after(async () => s?.stop());

  it('answers an auth-required API without credentials with 401 and the exact challenge', async () => {
    expect401(await send(url, {}));
    expect401(await send(item, {}));
    expect(WWW_AUTHENTICATE).to.equal('Simple realm="delivery-api", Secure realm="delivery-api"');
  });

  it('serves list and get-one with each scheme for a valid key', async () => {
    for (const headers of [secureHeaders(keys.full!.public_key, keys.full!.secret_key, url), simple(keys.full!), { authorization: `Bearer ${bearer.full}` }]) {
      const r = await send(url, headers);
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body.results.map((x: { _sys: { key: string } }) => x._sys.key)).to.deep.equal([resource]);
    }
    const one = await send(item, secureHeaders(keys.reader!.public_key, keys.reader!.secret_key, item));
    expect(one.status).to.equal(200);
    expect(one.body.data).to.deep.equal({ title: 'Hello' });
    expect((await send(`${url}?limit=1`, secureHeaders(keys.full!.public_key, keys.full!.secret_key, url))).status).to.equal(200);
  });

  describe('Secure', () => {
    const sign = (k: Key, target = url, body = '', date?: string) => secureHeaders(k.public_key, k.secret_key, target, body, date);
    it('refuses a missing Date header', async () => {
      const { authorization } = sign(keys.full!);
      expect401(await send(url, { authorization: authorization as string }));
    });
    it('refuses a Date with fractions or in another format', async () => {
      expect401(await send(url, sign(keys.full!, url, '', new Date().toISOString())));
      expect401(await send(url, sign(keys.full!, url, '', new Date().toUTCString())));
    });
    it('refuses a timestamp outside the 15-minute window, past or future', async () => {
      expect401(await send(url, sign(keys.full!, url, '', dateHeader(new Date(Date.now() - 16 * 60_000)))));
      expect401(await send(url, sign(keys.full!, url, '', dateHeader(new Date(Date.now() + 16 * 60_000)))));
      expect((await send(url, sign(keys.full!, url, '', dateHeader(new Date(Date.now() - 10 * 60_000))))).status).to.equal(200);
    });
    it('refuses a signature over another path', async () => {
      expect401(await send(url, sign(keys.full!, item)));
    });
    it('refuses a signature over another body', async () => {
      const headers = sign(keys.full!, url, '{"a":1}');
      expect401(await send(url, headers));
    });
    it('refuses a date header other than the one signed', async () => {
      const headers = sign(keys.full!, url, '', dateHeader(new Date(Date.now() - 60_000)));
      expect401(await send(url, { ...headers, date: dateHeader() }));
    });
    it('refuses a signature made with another key', async () => {
      const forged = sign(keys.reader!);
      expect401(await send(url, { ...forged, authorization: forged.authorization!.replace(keys.reader!.public_key, keys.full!.public_key) }));
    });
    it('refuses a replayed signature, also when its s half is negated', async () => {
      const headers = sign(keys.full!);
      expect((await send(url, headers)).status).to.equal(200);
      expect401(await send(url, headers));
      const [scheme, credential] = headers.authorization!.split(' ');
      const [publicKey, signature] = credential!.split(':');
      const malleated = negateS(Buffer.from(signature!, 'base64')).toString('base64');
      expect(malleated).to.not.equal(signature);
      expect401(await send(url, { ...headers, authorization: `${scheme} ${publicKey}:${malleated}` }));
    });
    it('refuses a malformed header, an unknown key, a deleted key, a management key and a key of another environment', async () => {
      expect401(await send(url, { authorization: 'Secure nocolon', date: dateHeader() }));
      expect401(await send(url, { authorization: 'Secure :sig', date: dateHeader() }));
      expect401(await send(url, { authorization: 'Digest abc', date: dateHeader() }));
      expect401(await send(url, sign({ ...keys.full!, public_key: 'AjDT1FDIYyyecdstJBV8GkNWyUFiNvi1ypixYrnvRDTS' })));
      for (const k of [keys.deleted!, keys.management!, keys.foreign!]) expect401(await send(url, sign(k)));
    });
    it('refuses a key whose role does not grant this API, or whose role was deleted', async () => {
      expect401(await send(url, sign(keys.elsewhere!)));
      expect401(await send(url, sign(keys.orphan!)));
    });
  });

  describe('Simple', () => {
    it('refuses a wrong secret, an unknown public key, a deleted, management or foreign key, and a key without the grant', async () => {
      expect401(await send(url, { authorization: `Simple ${keys.full!.public_key}:${keys.reader!.secret_key}` }));
      expect401(await send(url, { authorization: `Simple AjDT1FDIYyyecdstJBV8GkNWyUFiNvi1ypixYrnvRDTS:${keys.full!.secret_key}` }));
      for (const k of [keys.deleted!, keys.management!, keys.foreign!, keys.elsewhere!, keys.orphan!]) expect401(await send(url, simple(k)));
    });
  });

  describe('Bearer', () => {
    it('refuses a credential without the dlv_ prefix, such as a management JWT or a key pair', async () => {
      expect401(await send(url, { authorization: `Bearer ${s.token}` }));
      expect401(await send(url, { authorization: `Bearer ${keys.full!.public_key}:${keys.full!.secret_key}` }));
      expect401(await send(url, { authorization: `Bearer ${bearer.full!.slice(4)}` }));
    });
    it('refuses an unknown token, a deleted key\'s token and the token of a key without the grant', async () => {
      expect401(await send(url, { authorization: 'Bearer dlv_unknown' }));
      for (const name of ['deleted', 'elsewhere', 'orphan']) expect401(await send(url, { authorization: `Bearer ${bearer[name]}` }));
    });
    it('re-issuing replaces the token; revoking ends it; the key pair keeps working; reads show only the prefix', async () => {
      const k = await newKey();
      const first = await issue(k);
      expect(first).to.match(/^dlv_/);
      expect((await send(url, { authorization: `Bearer ${first}` })).status).to.equal(200);
      const second = await issue(k);
      expect401(await send(url, { authorization: `Bearer ${first}` }));
      expect((await send(url, { authorization: `Bearer ${second}` })).status).to.equal(200);
      const shown = await s.api('GET', `/v1/${s.env}/permissions/delivery-api/api-keys/${k.key}/`);
      expect(shown.body.bearer_token_prefix).to.equal(second.slice(0, 12));
      expect(JSON.stringify(shown.body)).to.not.include(second);
      expect(shown.body.public_key).to.equal(k.public_key);
      expect((await s.api('DELETE', `/v1/${s.env}/permissions/delivery-api/api-keys/${k.key}/bearer-token/`)).status).to.equal(204);
      expect401(await send(url, { authorization: `Bearer ${second}` }));
      expect((await send(url, simple(k))).status).to.equal(200);
      expect((await s.api('GET', `/v1/${s.env}/permissions/delivery-api/api-keys/${k.key}/`)).body.bearer_token_prefix).to.equal(null);
      expect((await s.api('DELETE', `/v1/${s.env}/permissions/delivery-api/api-keys/${k.key}/bearer-token/`)).status).to.equal(404);
      expect((await s.api('POST', `/v1/${s.env}/permissions/delivery-api/api-keys/nope/bearer-token/`)).status).to.equal(404);
      expect((await s.api('POST', `/v1/${s.env}/permissions/delivery-api/api-keys/${keys.management!.key}/bearer-token/`)).status).to.equal(404);
    });
  });

  it('follows key and role changes at once: nothing stale is served from the credential cache', async () => {
    const r = await role([{ content_type: 'flux-apis', actions: ['read'], all_objects: true }]);
    const k = await newKey(r);
    const token = await issue(k);
    const perms = `/v1/${s.env}/permissions/delivery-api/roles/${r}/permissions/`;
    for (const headers of [simple(k), { authorization: `Bearer ${token}` }]) expect((await send(url, headers)).status).to.equal(200);
    expect((await s.api('DELETE', `${perms}?content_type=flux-apis`)).status).to.equal(204);
    expect401(await send(url, simple(k)));
    expect401(await send(url, { authorization: `Bearer ${token}` }));
    await s.api('POST', perms, { content_type: 'flux-apis', actions: ['create'], all_objects: true });
    expect((await send(url, simple(k))).status).to.equal(403);
    await s.api('PUT', `/v1/${s.env}/permissions/delivery-api/api-keys/${k.key}/`, { role: null });
    expect((await send(url, simple(k))).status).to.equal(200);
    await s.api('DELETE', `/v1/${s.env}/permissions/delivery-api/api-keys/${k.key}/`);
    expect401(await send(url, simple(k)));
    expect401(await send(url, { authorization: `Bearer ${token}` }));
  });

  it('limits a key to the collections its role names (403 access_denied)', async () => {
    const r = await send(url, simple(keys.noCollection!));
    expect(r.status).to.equal(403);
    expect(r.body.error_code).to.equal('access_denied');
  });
});
