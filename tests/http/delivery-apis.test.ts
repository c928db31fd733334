import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

describe('delivery APIs and connections over HTTP', () => {
  let s: TestService;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;
  const createApi = (body: Record<string, unknown>) => s.api('POST', v1('/api/'), body);
  let apiCount = 0;
  const freshApi = async (extra: Record<string, unknown> = {}) => {
    apiCount += 1;
    const r = await createApi({ name: `API ${apiCount}`, prefix: `p${apiCount}`, ...extra });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body as { key: string; prefix: string };
  };
  const removeApi = (key: string) => s.api('DELETE', v1(`/api/${key}/`));

  /** A collection with a published one-field schema; returns its key. */
  const collectionWithSchema = async (alias: string, parent: string | null = null, strict = false): Promise<string> => {
    const c = await s.api('POST', v1('/collections/tree/'), { name: alias, alias, parent, strict_reference: strict });
    expect(c.status, JSON.stringify(c.body)).to.equal(201);
    const v = await s.api('POST', v1(`/collections/${c.body.key}/model/versions/`), {});
    await s.api('POST', v1(`/collections/${c.body.key}/model/versions/${v.body.key}/schema/tree/`), { key: 'title', type: 'string' });
    await s.api('POST', v1(`/collections/${c.body.key}/model/versions/${v.body.key}/publish/`), {});
    return c.body.key;
  };
  const resource = async (folder: string, title: string, owner: string | null = null): Promise<string> => {
    const r = await s.api('POST', v1(`/collections/${folder}/resources/`), { data: { title }, resource_owner: owner });
    expect(r.status).to.equal(201);
    return r.body.key;
  };
  const keysOf = (body: { results: { _sys: { key: string } }[] }) => body.results.map((r) => r._sys.key).sort();

  before(async () => {
    s = await startTestService();
  });
  after(async () => s?.stop());

  describe('create rules', () => {
    it('accepts only JSON booleans for the three flags', async () => {
      for (const flag of ['mcp_enabled', 'router_introspection_enabled', 'is_auth_required']) {
        for (const value of ['true', 'false', 1, 0, null, [], {}]) {
          const r = await createApi({ name: 'X', prefix: 'x', [flag]: value });
          expect(r.status, `${flag}=${JSON.stringify(value)}`).to.equal(422);
          expect(r.body.error_code).to.equal('validation_error');
          expect(r.body.detail).to.have.property(flag);
        }
      }
    });

    it('checks name, prefix, description and version', async () => {
      const bad = [
        { prefix: 'x' },
        { name: '', prefix: 'x' },
        { name: 'n'.repeat(256), prefix: 'x' },
        { name: 'X' },
        { name: 'X', prefix: '' },
        { name: 'X', prefix: 'p'.repeat(101) },
        { name: 'X', prefix: 'Upper' },
        { name: 'X', prefix: 'has space' },
        { name: 'X', prefix: 'dot.ted' },
        { name: 'X', prefix: 'x', description: 'd'.repeat(501) },
        { name: 'X', prefix: 'x', version: '2' },
        { name: 'X', prefix: 'x', version: 1 },
        { name: 'X', prefix: 'x', unknown: true },
      ];
      for (const body of bad) {
        const r = await createApi(body);
        expect(r.status, JSON.stringify(body).slice(0, 80)).to.equal(422);
        expect(r.body.error_code).to.equal('validation_error');
      }
      const ok = await freshApi({ name: 'n'.repeat(255), prefix: 'a-b_9', description: 'd'.repeat(500) });
      expect(ok.prefix).to.equal('a-b_9');
      await removeApi(ok.key);
    });

    it('normalises CORS origins and accepts ["*"] alone', async () => {
      const api = await freshApi({ cors_origins: ['HTTPS://Example.COM:443', 'http://a.example:80', 'http://b.example:8080', 'https://example.com'] });
      const got = await s.api('GET', v1(`/api/${api.key}/`));
      expect(got.body.cors_origins).to.deep.equal(['https://example.com', 'http://a.example', 'http://b.example:8080']);
      const star = await freshApi({ cors_origins: ['*'] });
      expect((await s.api('GET', v1(`/api/${star.key}/`))).body.cors_origins).to.deep.equal(['*']);
      await removeApi(api.key);
      await removeApi(star.key);
    });

    it('rejects every kind of invalid origin with 422', async () => {
      const bad = [
        ['https://a.example/path'],
        ['https://a.example/'],
        ['https://a.example?x=1'],
        ['https://a.example#frag'],
        ['https://user@a.example'],
        ['https://user:pw@a.example'],
        ['ftp://a.example'],
        ['javascript:alert(1)'],
        ['a.example'],
        ['*', 'https://a.example'],
        [5],
        'https://a.example',
        Array.from({ length: 101 }, (_, i) => `https://h${i}.example`),
      ];
      for (const cors_origins of bad) {
        const r = await createApi({ name: 'X', prefix: 'x', cors_origins });
        expect(r.status, JSON.stringify(cors_origins).slice(0, 60)).to.equal(422);
        expect(r.body.error_code).to.equal('validation_error');
      }
      const hundred = await freshApi({ cors_origins: Array.from({ length: 100 }, (_, i) => `https://h${i}.example`) });
      await removeApi(hundred.key);
    });
  });

  describe('update, patch and delete', () => {
    it('updates with PUT, keeping the version at "1" and the fields left out', async () => {
      const api = await freshApi({ description: 'keep me', mcp_enabled: false });
      const r = await s.api('PUT', v1(`/api/${api.key}/`), { name: 'Renamed', prefix: `${api.prefix}-new`, cors_origins: ['https://X.example'] });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ key: api.key, name: 'Renamed', prefix: `${api.prefix}-new`, version: '1', description: 'keep me', mcp_enabled: false });
      expect(r.body.cors_origins).to.deep.equal(['https://x.example']);
      expect((await s.api('GET', v1(`/api/${api.key}/`))).body).to.deep.equal(r.body);
      const same = await s.api('PUT', v1(`/api/${api.key}/`), { name: 'Again', prefix: `${api.prefix}-new` });
      expect(same.status).to.equal(200);
      await removeApi(api.key);
    });

    it('refuses a prefix of another API on update with 422 api_prefix_exists, and bad bodies with 422', async () => {
      const a = await freshApi();
      const b = await freshApi();
      const r = await s.api('PUT', v1(`/api/${b.key}/`), { name: 'B', prefix: a.prefix });
      expect(r.status).to.equal(422);
      expect(r.body.error_code).to.equal('api_prefix_exists');
      expect((await s.api('PUT', v1(`/api/${b.key}/`), { prefix: 'zz' })).status).to.equal(422);
      expect((await s.api('PUT', v1(`/api/${b.key}/`), { name: 'B', prefix: 'zz', version: '2' })).status).to.equal(422);
      expect((await s.api('PUT', v1(`/api/${b.key}/`), { name: 'B', prefix: 'zz', mcp_enabled: 'false' })).status).to.equal(422);
      const missing = await s.api('PUT', v1('/api/nope/'), { name: 'B', prefix: 'zz' });
      expect(missing.status).to.equal(404);
      expect(missing.body.error_code).to.equal('api_not_found');
      await removeApi(a.key);
      await removeApi(b.key);
    });

    it('patches exactly one of the two flags', async () => {
      const api = await freshApi();
      const mcp = await s.api('PATCH', v1(`/api/${api.key}/`), { mcp_enabled: false });
      expect(mcp.status).to.equal(200);
      expect(mcp.body).to.include({ mcp_enabled: false, router_introspection_enabled: true });
      const router = await s.api('PATCH', v1(`/api/${api.key}/`), { router_introspection_enabled: false });
      expect(router.body).to.include({ mcp_enabled: false, router_introspection_enabled: false });
      for (const body of [{}, { mcp_enabled: true, router_introspection_enabled: true }, { name: 'x' }, { is_auth_required: true }, { mcp_enabled: 'true' }, { mcp_enabled: null }]) {
        const r = await s.api('PATCH', v1(`/api/${api.key}/`), body);
        expect(r.status, JSON.stringify(body)).to.equal(422);
        expect(r.body.error_code).to.equal('validation_error');
      }
      expect((await s.api('PATCH', v1('/api/nope/'), { mcp_enabled: true })).status).to.equal(404);
      await removeApi(api.key);
    });

    it('deletes an API (204), disconnecting and auditing every connection, with the delete snapshot', async () => {
      const folder = await collectionWithSchema('deleted-api-target');
      const api = await freshApi();
      await s.api('POST', v1(`/api/${api.key}/collections/`), { folder, allowed_methods: ['get_many'] });
      const r = await removeApi(api.key);
      expect(r.status).to.equal(204);
      expect(r.body).to.equal(null);
      expect((await s.api('GET', v1(`/api/${api.key}/`))).status).to.equal(404);
      expect((await s.api('GET', v1(`/api/${api.key}/collections/`))).status).to.equal(404);
      expect((await s.get(`${s.delivery}/${api.prefix}/deleted-api-target/`)).body.error_code).to.equal('api_not_found');
      const events = (await s.api('GET', v1(`/events/?api_key=${api.key}&ordering=timestamp`))).body.results;
      expect(events.map((e: { event_type: string; metadata: { action?: string } | null }) => [e.event_type, e.metadata?.action ?? null])).to.deep.equal([
        ['create', null],
        ['update', 'connect'],
        ['update', 'disconnect'],
        ['delete', null],
      ]);
      expect(events[2].metadata).to.deep.equal({ action: 'disconnect', folder_key: folder });
      expect(events[3].metadata.snapshot).to.deep.equal({
        name: `API ${apiCount}`, description: '', prefix: api.prefix, version: '1', is_auth_required: false, mcp_enabled: true, router_introspection_enabled: true,
      });
      expect((await removeApi(api.key)).status).to.equal(404);
    });
  });

  describe('connections', () => {
    let folder: string;
    let api: { key: string; prefix: string };
    let doc: string;

    before(async () => {
      folder = await collectionWithSchema('books');
      doc = await resource(folder, 'Dune');
      api = await freshApi();
    });
    after(async () => removeApi(api.key));

    it('checks connect bodies: folder required, methods, description lengths, empty descriptions, mcp_truncate_text', async () => {
      const path = v1(`/api/${api.key}/collections/`);
      for (const body of [
        {},
        { folder, allowed_methods: ['get_many', 'get_many'] },
        { folder, allowed_methods: 'get_many' },
        { folder, description_get_one: 'x'.repeat(101) },
        { folder, mcp_truncate_text: 'x' },
        { folder, mcp_truncate_text: 0 },
        { folder, unscoped_levels: [0] },
      ]) {
        const r = await s.api('POST', path, body);
        expect(r.status, JSON.stringify(body)).to.equal(422);
      }
      const r = await s.api('POST', path, { folder, description_get_one: '', description_schema: 'x'.repeat(100), mcp_truncate_text: null });
      expect(r.status).to.equal(201);
      expect(r.body).to.include({ description_get_one: '', description_schema: 'x'.repeat(100), mcp_truncate_text: null });
      expect(r.body.allowed_methods).to.deep.equal([]);
      expect(r.body).to.not.have.property('flat_routes');
    });

    it('updates permissions with PUT (allowed_methods defaults to []) and the delivery layer follows at once', async () => {
      const path = v1(`/api/${api.key}/collections/${folder}/`);
      const open = await s.api('PUT', path, { allowed_methods: ['get_many', 'get_one'] });
      expect(open.status).to.equal(200);
      expect(open.body.allowed_methods).to.deep.equal(['get_many', 'get_one']);
      expect(open.body.description_get_one).to.equal('');
      expect((await s.get(`${s.delivery}/${api.prefix}/books/${doc}/`)).status).to.equal(200);
      const closed = await s.api('PUT', path, { description_search: 'Find books' });
      expect(closed.body).to.include({ description_search: 'Find books' });
      expect(closed.body.allowed_methods).to.deep.equal([]);
      expect((await s.get(`${s.delivery}/${api.prefix}/books/`)).status).to.equal(403);
      const events = (await s.api('GET', v1(`/events/?api_key=${api.key}&ordering=-timestamp&limit=1`))).body.results;
      expect(events[0].metadata).to.deep.equal({ action: 'update_permissions', folder_key: folder, allowed_methods: [] });
      expect((await s.api('PUT', path, { allowed_methods: ['nope'] })).status).to.equal(422);
      expect((await s.api('PUT', path, { description_get_many: 'x'.repeat(101) })).status).to.equal(422);
      expect((await s.api('PUT', v1(`/api/${api.key}/collections/nope/`), {})).body.error_code).to.equal('collection_not_found');
    });

    it('follows prefix and auth changes without a restart', async () => {
      await s.api('PUT', v1(`/api/${api.key}/collections/${folder}/`), { allowed_methods: ['get_many', 'get_one'] });
      const old = api.prefix;
      await s.api('PUT', v1(`/api/${api.key}/`), { name: 'Moved', prefix: `${old}-moved` });
      expect((await s.get(`${s.delivery}/${old}/books/`)).status).to.equal(404);
      expect((await s.get(`${s.delivery}/${old}-moved/books/`)).status).to.equal(200);
      await s.api('PUT', v1(`/api/${api.key}/`), { name: 'Moved', prefix: `${old}-moved`, is_auth_required: true });
      expect((await s.get(`${s.delivery}/${old}-moved/books/`)).status).to.equal(401);
      await s.api('PUT', v1(`/api/${api.key}/`), { name: 'Moved', prefix: old, is_auth_required: false });
      expect((await s.get(`${s.delivery}/${old}/books/`)).status).to.equal(200);
    });

    it('emits CORS headers only for listed origins, and on preflight', async () => {
      await s.api('PUT', v1(`/api/${api.key}/`), { name: 'Cors', prefix: api.prefix, cors_origins: ['https://app.example'] });
      const listed = await s.get(`${s.delivery}/${api.prefix}/books/`, { origin: 'https://app.example' });
      expect(listed.headers.get('access-control-allow-origin')).to.equal('https://app.example');
      expect(listed.headers.get('access-control-allow-headers')).to.not.match(/authorization/i);
      const other = await s.get(`${s.delivery}/${api.prefix}/books/`, { origin: 'https://evil.example' });
      expect(other.headers.get('access-control-allow-origin')).to.equal(null);
      const missing = await s.get(`${s.delivery}/${api.prefix}/books/nope/`, { origin: 'https://app.example' });
      expect(missing.status).to.equal(404);
      expect(missing.headers.get('access-control-allow-origin')).to.equal('https://app.example');
      const preflight = await fetch(`${s.delivery}/${api.prefix}/books/`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
      expect(preflight.status).to.equal(204);
      expect(preflight.headers.get('access-control-allow-methods')).to.include('GET');
      await s.api('PUT', v1(`/api/${api.key}/`), { name: 'Cors', prefix: api.prefix, cors_origins: [] });
      expect((await s.get(`${s.delivery}/${api.prefix}/books/`, { origin: 'https://app.example' })).headers.get('access-control-allow-origin')).to.equal(null);
    });

    it('disconnects (204): the collection and its resources stay, access ends', async () => {
      const r = await s.api('DELETE', v1(`/api/${api.key}/collections/${folder}/`));
      expect(r.status).to.equal(204);
      expect((await s.api('GET', v1(`/api/${api.key}/collections/${folder}/`))).body.error_code).to.equal('collection_not_found');
      expect((await s.api('GET', v1(`/collections/tree/collection/?key=${folder}`))).status).to.equal(200);
      expect((await s.api('GET', v1(`/collections/${folder}/resources/${doc}/`))).status).to.equal(200);
      expect((await s.get(`${s.delivery}/${api.prefix}/books/`)).body.error_code).to.equal('collection_not_found');
      expect((await s.api('DELETE', v1(`/api/${api.key}/collections/${folder}/`))).status).to.equal(404);
    });
  });

  describe('strict-reference collections', () => {
    let courses: string;
    let modules: string;
    let lessons: string;
    let api: { key: string; prefix: string };
    const k: Record<string, string> = {};

    before(async () => {
      courses = await collectionWithSchema('courses');
      modules = await collectionWithSchema('modules', courses, true);
      lessons = await collectionWithSchema('lessons', modules, true);
      k.c1 = await resource(courses, 'C1');
      k.c2 = await resource(courses, 'C2');
      k.m1 = await resource(modules, 'M1', k.c1);
      k.m2 = await resource(modules, 'M2', k.c2);
      k.l1 = await resource(lessons, 'L1', k.m1);
      k.l2 = await resource(lessons, 'L2', k.m2);
      api = await freshApi();
    });
    after(async () => removeApi(api.key));

    it('connects the strict ancestors with no allowed methods so that the nested route exists', async () => {
      const r = await s.api('POST', v1(`/api/${api.key}/collections/`), { folder: lessons, allowed_methods: ['get_many', 'get_one'] });
      expect(r.status).to.equal(201);
      const list = (await s.api('GET', v1(`/api/${api.key}/collections/`))).body.results;
      const methods = Object.fromEntries(list.map((c: { folder: string; allowed_methods: string[] }) => [c.folder, c.allowed_methods]));
      expect(methods).to.deep.equal({ [courses]: [], [modules]: [], [lessons]: ['get_many', 'get_one'] });
      expect((await s.get(`${s.delivery}/${api.prefix}/courses/`)).status).to.equal(403);
      const nested = await s.get(`${s.delivery}/${api.prefix}/courses/${k.c1}/modules/${k.m1}/lessons/`);
      expect(nested.status).to.equal(200);
      expect(keysOf(nested.body)).to.deep.equal([k.l1]);
      expect((await s.get(`${s.delivery}/${api.prefix}/courses/${k.c1}/modules/${k.m1}/lessons/${k.l1}/`)).body.data).to.deep.equal({ title: 'L1' });
      expect((await s.get(`${s.delivery}/${api.prefix}/courses/${k.c1}/modules/${k.m1}/lessons/${k.l2}/`)).status).to.equal(404);
      expect((await s.get(`${s.delivery}/${api.prefix}/courses/${k.c2}/modules/${k.m1}/lessons/`)).status).to.equal(404);
    });

    it('lists the flat routes of the connection with their level and state', async () => {
      const r = await s.api('GET', v1(`/api/${api.key}/collections/${lessons}/`));
      expect(r.body.flat_routes).to.deep.equal([
        { path: `/${api.prefix}/courses/modules/lessons/`, level: 0, enabled: false, reason: 'not listed in unscoped_levels' },
        { path: `/${api.prefix}/courses/:courses_key/modules/lessons/`, level: 1, enabled: false, reason: 'not listed in unscoped_levels' },
      ]);
      const course = await s.api('GET', v1(`/api/${api.key}/collections/${courses}/`));
      expect(course.body).to.not.have.property('flat_routes');
    });

    it('publishes flat levels sent with the live ancestor chain and serves them', async () => {
      const path = v1(`/api/${api.key}/collections/${lessons}/`);
      const methods = ['get_many', 'get_one'];
      for (const body of [
        { allowed_methods: methods, unscoped_levels: [0] },
        { allowed_methods: methods, unscoped_ancestors: [courses, modules] },
        { allowed_methods: methods, unscoped_levels: [0], unscoped_ancestors: [] },
        { allowed_methods: methods, unscoped_levels: [0], unscoped_ancestors: [modules, courses] },
        { allowed_methods: methods, unscoped_levels: [2], unscoped_ancestors: [courses, modules] },
      ]) {
        const r = await s.api('PUT', path, body);
        expect(r.status, JSON.stringify(body)).to.equal(422);
        expect(r.body.error_code).to.equal('validation_error');
      }
      const r = await s.api('PUT', path, { allowed_methods: methods, unscoped_levels: [0, 1], unscoped_ancestors: [courses, modules] });
      expect(r.status).to.equal(200);
      expect(r.body.flat_routes.map((f: { enabled: boolean }) => f.enabled)).to.deep.equal([true, true]);
      const flat = await s.get(`${s.delivery}/${api.prefix}/courses/modules/lessons/`);
      expect(flat.status, JSON.stringify(flat.body)).to.equal(200);
      expect(keysOf(flat.body)).to.deep.equal([k.l1, k.l2].sort());
      expect(keysOf((await s.get(`${s.delivery}/${api.prefix}/courses/${k.c2}/modules/lessons/`)).body)).to.deep.equal([k.l2]);
      const cleared = await s.api('PUT', path, { allowed_methods: methods, unscoped_levels: [], unscoped_ancestors: [] });
      expect(cleared.body).to.include.keys('unscoped_levels', 'unscoped_ancestors');
      expect(cleared.body.unscoped_ancestors).to.deep.equal([]);
      expect((await s.get(`${s.delivery}/${api.prefix}/courses/modules/lessons/`)).status).to.equal(404);
    });

    it('refuses to disconnect an ancestor a connected strict collection needs with 422 strict_reference_error', async () => {
      const r = await s.api('DELETE', v1(`/api/${api.key}/collections/${modules}/`));
      expect(r.status).to.equal(422);
      expect(r.body.error_code).to.equal('strict_reference_error');
      expect((await s.api('DELETE', v1(`/api/${api.key}/collections/${lessons}/`))).status).to.equal(204);
      expect((await s.api('DELETE', v1(`/api/${api.key}/collections/${modules}/`))).status).to.equal(204);
    });
  });

  describe('quota', () => {
    it('holds the delivery API quota under concurrent creates', async () => {
      const fresh = await startTestService({ PLAN: 'free' });
      try {
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, i) => fresh.api('POST', `/v1/${fresh.env}/api/`, { name: `C${i}`, prefix: `c${i}` })),
        );
        const statuses = results.map((r) => r.status);
        expect(statuses.filter((st) => st === 201)).to.have.length(5);
        expect(statuses.filter((st) => st === 403)).to.have.length(7);
        const refused = results.find((r) => r.status === 403);
        expect(refused?.body).to.deep.include({ error_code: 'plan_limit_exceeded' });
        expect(refused?.body.detail).to.deep.include({ entity: 'delivery_api', current: 5, limit: 5 });
        expect(refused?.body.detail.upgrade_url).to.be.a('string');
        expect((await fresh.api('GET', `/v1/${fresh.env}/api/`)).body.count).to.equal(5);
      } finally {
        await fresh.stop();
      }
    });
  });
});
