import { expect } from 'chai';
import { startTestService, type Reply, type TestService } from '../support/service.js';
import { secureHeaders } from '../support/secure-signing.js';

type Key = { key: string; public_key: string; secret_key: string };

describe('delivery writes and grants: every grant and method combination', () => {
  let s: TestService;
  let collection: string;
  let existing: string;
  let publicApi: string;
  let readOnlyApi: string;
  const keys: Record<string, Key | null> = { anonymous: null };

  const send = async (method: string, target: string, key: Key | null, body?: unknown): Promise<Reply> => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = text === undefined ? {} : { 'content-type': 'application/json' };
    if (key) Object.assign(headers, { authorization: `Simple ${key.public_key}:${key.secret_key}` });
    const response = await fetch(target, { method, headers, body: text });
    const raw = await response.text();
    return { status: response.status, body: raw ? JSON.parse(raw) : null, headers: response.headers };
  };
  const base = (prefix: string) => `${s.delivery}/${prefix}/articles/`;
  const roleWith = async (actions: string[], objects: string[] | null = null) => {
    const role = (await s.api('POST', `/v1/${s.env}/permissions/delivery-api/roles/`, { name: actions.join('+') || 'none' })).body.key;
    const permission = { content_type: 'flux-apis', actions, all_objects: objects === null, objects: objects ?? [] };
    expect((await s.api('POST', `/v1/${s.env}/permissions/delivery-api/roles/${role}/permissions/`, permission)).status).to.equal(201);
    return role;
  };
  const keyWith = async (role: string | null): Promise<Key> => (await s.api('POST', `/v1/${s.env}/permissions/delivery-api/api-keys/`, { role })).body;

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    const e = `/v1/${s.env}`;
    collection = (await s.api('POST', `${e}/collections/tree/`, { name: 'Articles', alias: 'articles' })).body.key;
    const v = (await s.api('POST', `${e}/collections/${collection}/model/versions/`, { name: 'v1' })).body.key;
    await s.api('POST', `${e}/collections/${collection}/model/versions/${v}/schema/tree/`, { key: 'title', name: 'Title', type: 'string', required: true });
    await s.api('POST', `${e}/collections/${collection}/model/versions/${v}/schema/tree/`, { key: 'views', type: 'integer' });
    await s.api('POST', `${e}/collections/${collection}/model/versions/${v}/publish/`, {});
    publicApi = (await s.api('POST', `${e}/api/`, { name: 'Public', prefix: 'public' })).body.key;
    await s.api('POST', `${e}/api/${publicApi}/collections/`, { folder: collection, allowed_methods: ['get_many', 'get_one', 'create', 'update'] });
    readOnlyApi = (await s.api('POST', `${e}/api/`, { name: 'Read only', prefix: 'readonly' })).body.key;
    await s.api('POST', `${e}/api/${readOnlyApi}/collections/`, { folder: collection, allowed_methods: ['get_many', 'get_one'] });
    existing = (await s.api('POST', `${e}/collections/${collection}/resources/`, { data: { title: 'First', views: 1 } })).body.key;
    keys.unrestricted = await keyWith(null);
    keys.read = await keyWith(await roleWith(['read']));
    keys.create = await keyWith(await roleWith(['create']));
    keys.readCreate = await keyWith(await roleWith(['read', 'create']));
    keys.readUpdate = await keyWith(await roleWith(['read', 'update']));
    keys.all = await keyWith(await roleWith(['read', 'create', 'update']));
    keys.otherApi = await keyWith(await roleWith(['read', 'create', 'update'], [readOnlyApi]));
  });
  after(async () => s?.stop());

  /** grant → [GET list, POST create, PUT update] on the API whose connection allows all four methods. */
  const MATRIX: Record<string, [number, number, number]> = {
    anonymous: [200, 401, 401],
    unrestricted: [200, 201, 200],
    read: [200, 403, 403],
    create: [403, 201, 403],
    readCreate: [200, 201, 403],
    readUpdate: [200, 403, 200],
    all: [200, 201, 200],
    otherApi: [401, 401, 401],
  };

  for (const [grant, [read, create, update]] of Object.entries(MATRIX)) {
    it(`${grant}: list ${read}, create ${create}, update ${update}`, async () => {
      const key = keys[grant] ?? null;
      const list = await send('GET', base('public'), key);
      expect(list.status, JSON.stringify(list.body)).to.equal(read);
      const one = await send('GET', `${base('public')}${existing}/`, key);
      expect(one.status).to.equal(read);
      const created = await send('POST', base('public'), key, { data: { title: `by ${grant}` } });
      expect(created.status, JSON.stringify(created.body)).to.equal(create);
      const updated = await send('PUT', `${base('public')}${existing}/`, key, { data: { title: `updated by ${grant}` } });
      expect(updated.status, JSON.stringify(updated.body)).to.equal(update);
      for (const r of [list, created, updated]) {
        if (r.status === 401) expect(r.headers.get('www-authenticate')).to.equal('Simple realm="delivery-api", Secure realm="delivery-api"');
        if (r.status === 403) expect(r.body).to.deep.include({ error_code: 'access_denied' });
        if (r.status === 401) expect(r.body).to.deep.include({ error_code: 'authentication_required', detail: null });
      }
      if (create === 201) expect(created.body).to.have.all.keys('resource_key', 'revision_key', 'write_units', 'published');
    });
  }

  it('refuses writes on a connection without create / update with 403 collection_not_writable, whatever the grant', async () => {
    for (const key of [keys.unrestricted!, keys.otherApi!]) {
      const created = await send('POST', base('readonly'), key, { data: { title: 'x' } });
      expect(created.status).to.equal(403);
      expect(created.body.error_code).to.equal('collection_not_writable');
      const updated = await send('PUT', `${base('readonly')}${existing}/`, key, { data: { title: 'x' } });
      expect(updated.body.error_code).to.equal('collection_not_writable');
    }
    expect((await send('POST', base('readonly'), null, { data: { title: 'x' } })).status).to.equal(401);
  });

  /** allowed_methods of the connection → [GET list, GET one, POST create, PUT update] for an unrestricted key. */
  const CONNECTIONS: [string[], [number, number, number, number]][] = [
    [[], [403, 403, 403, 403]],
    [['get_many'], [200, 403, 403, 403]],
    [['get_one'], [403, 200, 403, 403]],
    [['create'], [403, 403, 201, 403]],
    [['update'], [403, 403, 403, 200]],
    [['get_many', 'get_one', 'create', 'update'], [200, 200, 201, 200]],
  ];

  it('answers every allowed_methods and method combination of a connection as specified', async () => {
    const api = (await s.api('POST', `/v1/${s.env}/api/`, { name: 'Matrix', prefix: 'matrix' })).body.key;
    await s.api('POST', `/v1/${s.env}/api/${api}/collections/`, { folder: collection, allowed_methods: [] });
    const target = `${s.delivery}/matrix/articles/`;
    for (const [methods, [list, one, create, update]] of CONNECTIONS) {
      expect((await s.api('PUT', `/v1/${s.env}/api/${api}/collections/${collection}/`, { allowed_methods: methods })).status).to.equal(200);
      const got = [
        (await send('GET', target, keys.unrestricted!)).status,
        (await send('GET', `${target}${existing}/`, keys.unrestricted!)).status,
        (await send('POST', target, keys.unrestricted!, { data: { title: 'm' } })).status,
        (await send('PUT', `${target}${existing}/`, keys.unrestricted!, { data: { title: 'm' } })).status,
      ];
      expect(got, methods.join(',') || 'none').to.deep.equal([list, one, create, update]);
    }
  });

  it('takes writes with a Bearer token as with the key pair', async () => {
    const token = (await s.api('POST', `/v1/${s.env}/permissions/delivery-api/api-keys/${keys.readCreate!.key}/bearer-token/`)).body.bearer_token;
    const post = (authorization: string) =>
      fetch(base('public'), { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ data: { title: 'bearer' } }) });
    expect((await post(`Bearer ${token}`)).status).to.equal(201);
    expect((await post(`Bearer ${s.token}`)).status).to.equal(401);
    const put = await fetch(`${base('public')}${existing}/`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ data: { title: 'x' } }) });
    expect(put.status).to.equal(403);
  });

  it('creates a published resource, served at once and audited with the key as actor', async () => {
    const created = await send('POST', base('public'), keys.all!, { data: { title: 'Fresh', views: 3 } });
    expect(created.status).to.equal(201);
    expect(created.body).to.deep.include({ write_units: 1, published: true });
    const served = await send('GET', `${base('public')}${created.body.resource_key}/`, null);
    expect(served.body.data).to.deep.equal({ title: 'Fresh', views: 3 });
    const managed = await s.api('GET', `/v1/${s.env}/collections/${collection}/resources/${created.body.resource_key}/`);
    expect(managed.body.current_revision).to.equal(created.body.revision_key);
    const events = await s.api('GET', `/v1/${s.env}/events/?entity_type=resource&entity_key=${created.body.resource_key}`);
    expect(events.body.results[0]).to.deep.include({ event_type: 'create', actor_type: 'apikey' });
    expect(events.body.results[0].actor).to.deep.include({ key: keys.all!.key, public_key: keys.all!.public_key, environment: s.env });
  });

  it('replaces the whole document with PUT (absent fields removed) as a new published revision', async () => {
    const created = await send('POST', base('public'), keys.all!, { data: { title: 'Before', views: 9 } });
    const updated = await send('PUT', `${base('public')}${created.body.resource_key}/`, keys.all!, { data: { title: 'After' } });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.deep.include({ resource_key: created.body.resource_key, published: true, write_units: 1 });
    expect(updated.body.revision_key).to.not.equal(created.body.revision_key);
    expect((await send('GET', `${base('public')}${created.body.resource_key}/`, null)).body.data).to.deep.equal({ title: 'After' });
  });

  it('accepts a signed (Secure) write whose signature covers the body', async () => {
    const body = JSON.stringify({ data: { title: 'Signed' } });
    const headers = secureHeaders(keys.all!.public_key, keys.all!.secret_key, base('public'), body);
    const r = await fetch(base('public'), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    expect(r.status).to.equal(201);
    const tampered = secureHeaders(keys.all!.public_key, keys.all!.secret_key, base('public'), body);
    const t = await fetch(base('public'), { method: 'POST', headers: { ...tampered, 'content-type': 'application/json' }, body: body.replace('Signed', 'Forged') });
    expect(t.status).to.equal(401);
  });

  it('answers bad writes with the product codes and writes nothing', async () => {
    const before = (await s.api('GET', `/v1/${s.env}/collections/${collection}/resources/`)).body.count;
    const invalid = await send('POST', base('public'), keys.all!, { data: { views: 'many' } });
    expect(invalid.status).to.equal(422);
    expect(invalid.body.error_code).to.equal('content_validation_failed');
    expect(invalid.body.detail.errors_truncated).to.equal(false);
    expect(invalid.body.detail.errors.map((e: { json_path: string }) => e.json_path)).to.include('$.views');
    expect((await send('POST', base('public'), keys.all!, { title: 'no data' })).body.error_code).to.equal('validation_error');
    expect((await send('POST', base('public'), keys.all!, { data: [] })).status).to.equal(422);
    const badPut = await send('PUT', `${base('public')}${existing}/`, keys.all!, { data: { title: 7 } });
    expect(badPut.body.error_code).to.equal('content_validation_failed');
    expect((await send('PUT', `${base('public')}nope/`, keys.all!, { data: { title: 'x' } })).status).to.equal(404);
    expect((await send('POST', `${base('public')}${existing}/`, keys.all!, { data: { title: 'x' } })).status).to.equal(404);
    expect((await send('PUT', base('public'), keys.all!, { data: { title: 'x' } })).status).to.equal(404);
    expect((await s.api('GET', `/v1/${s.env}/collections/${collection}/resources/`)).body.count).to.equal(before);
  });

  it('writes into a strict-reference collection under the parent keys of the path, never through a flat address', async () => {
    const e = `/v1/${s.env}`;
    const schema = async (alias: string, parent: string | null, strict: boolean) => {
      const c = (await s.api('POST', `${e}/collections/tree/`, { name: alias, alias, parent, strict_reference: strict })).body.key;
      const v = (await s.api('POST', `${e}/collections/${c}/model/versions/`, {})).body.key;
      await s.api('POST', `${e}/collections/${c}/model/versions/${v}/schema/tree/`, { key: 'title', type: 'string' });
      await s.api('POST', `${e}/collections/${c}/model/versions/${v}/publish/`, {});
      return c;
    };
    const users = await schema('users', null, false);
    const notes = await schema('notes', users, true);
    const memories = await schema('memories', notes, true);
    const api = (await s.api('POST', `${e}/api/`, { name: 'Nested', prefix: 'nested' })).body.key;
    const connected = await s.api('POST', `${e}/api/${api}/collections/`, { folder: memories, allowed_methods: ['get_many', 'get_one', 'create', 'update'] });
    expect(connected.status).to.equal(201);
    const u1 = (await s.api('POST', `${e}/collections/${users}/resources/`, { data: { title: 'u1' } })).body.key;
    const u2 = (await s.api('POST', `${e}/collections/${users}/resources/`, { data: { title: 'u2' } })).body.key;
    const n1 = (await s.api('POST', `${e}/collections/${notes}/resources/`, { data: { title: 'n1' }, resource_owner: u1 })).body.key;
    const path = `${s.delivery}/nested/users/${u1}/notes/${n1}/memories/`;
    const created = await send('POST', path, keys.all!, { data: { title: 'm1' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const managed = await s.api('GET', `${e}/collections/${memories}/resources/${created.body.resource_key}/`);
    expect(managed.body.resource_owner).to.equal(n1);
    expect((await send('GET', `${path}${created.body.resource_key}/`, null)).body.data).to.deep.equal({ title: 'm1' });
    const wrongUser = `${s.delivery}/nested/users/${u2}/notes/${n1}/memories/`;
    expect((await send('POST', wrongUser, keys.all!, { data: { title: 'x' } })).status).to.equal(404);
    expect((await send('PUT', `${wrongUser}${created.body.resource_key}/`, keys.all!, { data: { title: 'x' } })).status).to.equal(404);
    expect((await send('PUT', `${path}${created.body.resource_key}/`, keys.all!, { data: { title: 'm1b' } })).status).to.equal(200);
    const flat = await s.api('PUT', `${e}/api/${api}/collections/${memories}/`, { allowed_methods: ['get_many', 'get_one', 'create', 'update'], unscoped_levels: [0], unscoped_ancestors: [users, notes] });
    expect(flat.status, JSON.stringify(flat.body)).to.equal(200);
    const viaFlat = await send('POST', `${s.delivery}/nested/users/notes/memories/`, keys.all!, { data: { title: 'x' } });
    expect(viaFlat.status).to.equal(403);
    expect(viaFlat.body.error_code).to.equal('collection_not_writable');
  });

  it('answers a body that does not parse with 401 when no key is sent, 422 when one is', async () => {
    const post = (headers: Record<string, string>) => fetch(base('public'), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"data":' });
    const anonymous = await post({});
    expect(anonymous.status).to.equal(401);
    const keyed = await post({ authorization: `Simple ${keys.all!.public_key}:${keys.all!.secret_key}` });
    expect(keyed.status).to.equal(422);
    expect(((await keyed.json()) as { error_code: string }).error_code).to.equal('validation_error');
  });

  it('deduplicates by the external key: a second create with the same key is 409 external_id_conflict', async () => {
    const first = await send('POST', base('public'), keys.all!, { data: { title: 'Once' }, key: 'import-1' });
    expect(first.status).to.equal(201);
    const again = await send('POST', base('public'), keys.all!, { data: { title: 'Twice' }, key: 'import-1' });
    expect(again.status).to.equal(409);
    expect(again.body.error_code).to.equal('external_id_conflict');
  });
});
