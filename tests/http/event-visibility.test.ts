import { expect } from 'chai';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type Reply, type TestService } from '../support/service.js';

type Key = { key: string; public_key: string; secret_key: string };
type Event = { key: string; event_type: string; entity_type: string; entity_key: string; metadata: Record<string, unknown> | null };

/** The specification: "Non-admin users see only environment events for entities they may read". */
describe('environment events: a key sees only the events of entities its role may read', () => {
  let s: TestService;
  let a: string;
  let b: string;
  let c: string;
  /** Delivery APIs: site (with alpha connected), blog. */
  const apis: string[] = [];
  /** Resources by collection. */
  const resources: Record<string, string[]> = {};
  const rolesPath = () => v1(s, '/permissions/management-api/roles/');
  const asKey = (k: Key, path: string): Promise<Reply> => s.api('GET', path, undefined, { authorization: `Simple ${k.public_key}:${k.secret_key}` });
  const EVENTS = { content_type: 'events', actions: ['read'] };

  async function role(permissions: object[], full_access = false): Promise<string> {
    const r = await s.api('POST', rolesPath(), { name: 'r', full_access });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    if (permissions.length) expect((await s.api('POST', `${rolesPath()}${r.body.key}/permissions/batch/`, permissions)).status).to.equal(200);
    return r.body.key;
  }
  const keyWith = async (roleKey: string | null): Promise<Key> => (await s.api('POST', v1(s, '/permissions/management-api/api-keys/'), { role: roleKey })).body;

  /** Every event of a list, page after page through `next`. */
  async function all(get: (path: string) => Promise<Reply>, query = ''): Promise<Event[]> {
    const out: Event[] = [];
    let path: string | null = v1(s, `/events/?limit=100${query}`);
    while (path !== null) {
      const page = await get(path);
      expect(page.status, JSON.stringify(page.body)).to.equal(200);
      out.push(...page.body.results);
      path = page.body.next === null ? null : new URL(page.body.next).pathname + new URL(page.body.next).search;
    }
    return out;
  }
  const asAdmin = (path: string) => s.api('GET', path);

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    [a, b, c] = [await collectionWithSchema(s, 'alpha'), await collectionWithSchema(s, 'beta'), await collectionWithSchema(s, 'gamma')];
    for (const [folder, n] of [[a, 2], [b, 1], [c, 1]] as const) {
      resources[folder] = [];
      for (let i = 0; i < n; i++) {
        const r = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: `t${i}` } });
        expect(r.status, JSON.stringify(r.body)).to.equal(201);
        resources[folder]!.push(r.body.key);
      }
    }
    expect((await s.api('POST', v1(s, '/locales/'), { code: 'de', name: 'German' })).status).to.equal(201);
    for (const prefix of ['site', 'blog']) {
      const created = await s.api('POST', v1(s, '/api/'), { name: prefix, prefix });
      expect(created.status).to.equal(201);
      apis.push(created.body.key);
    }
    expect((await s.api('POST', v1(s, `/api/${apis[0]}/collections/`), { folder: a, allowed_methods: ['get_many'] })).status).to.equal(201);
  });
  after(async () => s?.stop());

  it('shows the bootstrap administrator, a key without a role and a full-access key every event', async () => {
    const keys = [await keyWith(null), await keyWith(await role([], true))];
    const admin = await all(asAdmin);
    const types = new Set(admin.map((e) => e.entity_type));
    for (const t of ['collection', 'version', 'resource', 'revision', 'locale', 'api', 'envrole', 'manageapikey']) expect(types, t).to.include(t);
    for (const k of keys) {
      const mine = await all((p) => asKey(k, p));
      expect(mine.map((e) => e.key)).to.deep.equal(admin.map((e) => e.key));
    }
  });

  it('shows a key with read on collections only the collection events, with count and paging of those alone', async () => {
    const k = await keyWith(await role([EVENTS, { content_type: 'collections', actions: ['read'] }]));
    const mine = await all((p) => asKey(k, p));
    expect(mine.map((e) => e.entity_type)).to.deep.equal(mine.map(() => 'collection'));
    const expected = await all(asAdmin, '&entity_type=collection');
    expect(mine.map((e) => e.key)).to.deep.equal(expected.map((e) => e.key));
    expect(expected.length).to.equal(3);
    const first = await asKey(k, v1(s, '/events/?limit=2'));
    expect(first.body.count).to.equal(3);
    expect(first.body.results).to.have.length(2);
    expect(first.body.next).to.be.a('string');
    const resourcesOnly = await asKey(k, v1(s, `/events/?entity_type=resource&collection_key=${a}`));
    expect(resourcesOnly.body).to.deep.include({ count: 0, results: [], next: null });
  });

  it('shows a key with read on two listed collections only their events and those of their resources, across filtered pages', async () => {
    const limited = { actions: ['read'], all_objects: false, objects: [a, b] };
    const k = await keyWith(await role([EVENTS, { content_type: 'collections', ...limited }, { content_type: 'resources', ...limited }]));
    const admin = await all(asAdmin);
    const visible = (e: Event & { collection_key?: string }) =>
      (e.entity_type === 'collection' && [a, b].includes(e.entity_key)) ||
      (['resource', 'revision'].includes(e.entity_type) && [a, b].includes(e.metadata?.folder_key as string));
    const expected = admin.filter(visible).map((e) => e.key);
    expect(expected.length).to.be.greaterThan(6);

    const walked: string[] = [];
    const counts = new Set<number>();
    let path: string | null = v1(s, '/events/?limit=3&ordering=timestamp');
    let pages = 0;
    while (path !== null && pages < 50) {
      const page = await asKey(k, path);
      expect(page.status).to.equal(200);
      expect(page.body.results.length).to.be.at.most(3);
      counts.add(page.body.count);
      walked.push(...page.body.results.map((e: Event) => e.key));
      path = page.body.next === null ? null : new URL(page.body.next).pathname + new URL(page.body.next).search;
      pages++;
    }
    expect([...counts]).to.deep.equal([expected.length]);
    expect(walked).to.deep.equal([...expected].reverse());
    expect(pages).to.equal(Math.ceil(expected.length / 3));

    const last = await asKey(k, v1(s, `/events/?limit=3&offset=${expected.length - 1}`));
    expect(last.body.results).to.have.length(1);
    expect(last.body.next).to.equal(null);
    expect(last.body.previous).to.be.a('string');
    const ofC = await asKey(k, v1(s, `/events/?collection_key=${c}`));
    expect(ofC.body).to.deep.include({ count: 0, results: [] });
    const ofResource = await asKey(k, v1(s, `/events/?resource_key=${resources[a]![0]}`));
    expect(ofResource.body.count).to.be.greaterThan(0);
    expect(ofResource.body.results.every((e: Event) => ['resource', 'revision'].includes(e.entity_type))).to.equal(true);
  });

  it('scopes the other entity types by their own permissions: versions by schema, roles and their permissions by role', async () => {
    const other = await role([{ content_type: 'locales', actions: ['read'] }]);
    const listed = await role([{ content_type: 'collections', actions: ['read'] }]);
    const k = await keyWith(await role([
      EVENTS,
      { content_type: 'flux-apis', actions: ['read'], all_objects: false, objects: [apis[0]] },
      { content_type: 'schemas', actions: ['read'], all_objects: false, objects: [c] },
      { content_type: 'management-api', actions: ['read'], all_objects: false, objects: [listed] },
      { content_type: 'locales', actions: ['create'] },
    ]));
    const mine = await all((p) => asKey(k, p));
    const versions = mine.filter((e) => e.entity_type === 'version');
    expect(versions.length).to.be.greaterThan(0);
    expect(versions.every((e) => e.metadata?.folder_key === c)).to.equal(true);
    const roles = mine.filter((e) => e.entity_type === 'envrole');
    expect(roles.map((e) => e.entity_key)).to.deep.equal([listed]);
    const permissions = mine.filter((e) => e.entity_type === 'managepermissionrole');
    expect(permissions.length).to.equal(1);
    expect(permissions[0]!.metadata).to.deep.include({ role_key: listed });
    expect(mine.some((e) => e.entity_key === other)).to.equal(false);
    // The site API's create and its connection of alpha, nothing of the blog API.
    const apiEvents = mine.filter((e) => e.entity_type === 'api');
    expect(apiEvents.map((e) => [e.entity_key, e.event_type, e.metadata?.action ?? null])).to.deep.equal([[apis[0], 'update', 'connect'], [apis[0], 'create', null]]);
    // A permission without read (locales: create only) shows nothing of its type.
    expect(mine.map((e) => e.entity_type).filter((t) => !['version', 'envrole', 'managepermissionrole', 'api'].includes(t))).to.deep.equal([]);
  });

  it('follows a role change at once and still validates the query first', async () => {
    const roleKey = await role([EVENTS]);
    const k = await keyWith(roleKey);
    const none = await asKey(k, v1(s, '/events/'));
    expect(none.body).to.deep.include({ count: 0, results: [], next: null });
    expect((await s.api('POST', `${rolesPath()}${roleKey}/permissions/`, { content_type: 'locales', actions: ['read'] })).status).to.be.oneOf([200, 201]);
    const locales = await asKey(k, v1(s, '/events/'));
    expect(locales.body.count).to.equal(1);
    expect(locales.body.results[0]).to.deep.include({ entity_type: 'locale', entity_key: 'de' });
    const bad = await asKey(k, v1(s, '/events/?entity_type=planet'));
    expect(bad.status).to.equal(422);
    expect(bad.body.error_code).to.equal('validation_error');
  });

  it('replays only the raw events of entities the key may read, without hashes of secrets', async () => {
    const replay = async (k: Key, query = ''): Promise<{ type: string; stream: string; data: Record<string, unknown> }[]> => {
      const r = await fetch(`${s.base}${v1(s, `/events/stream/?format=ndjson${query}`)}`, { headers: { authorization: `Simple ${k.public_key}:${k.secret_key}` } });
      expect(r.status).to.equal(200);
      return (await r.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line));
    };
    const collectionsOnly = await keyWith(await role([EVENTS, { content_type: 'collections', actions: ['read'] }]));
    const collectionLines = await replay(collectionsOnly);
    expect(collectionLines.map((l) => l.type)).to.deep.equal(['CollectionCreated', 'CollectionCreated', 'CollectionCreated']);
    expect(collectionLines.map((l) => l.data.key)).to.deep.equal([a, b, c]);

    const ofA = await keyWith(await role([EVENTS, { content_type: 'resources', actions: ['read'], all_objects: false, objects: [a] }]));
    const lines = await replay(ofA);
    expect(lines.filter((l) => l.type === 'ResourceCreated').map((l) => l.data.key)).to.deep.equal(resources[a]);
    expect(lines.every((l) => l.stream.startsWith('resource-') && l.data.folder === a)).to.equal(true);
    expect(await replay(ofA, `&collection=${b}`)).to.deep.equal([]);

    // A key without a role sees the whole environment, hashes blanked.
    const everything = await replay(await keyWith(null), '&event_type=ApiKeyCreated');
    expect(everything.length).to.be.greaterThan(3);
    expect(everything.every((l) => l.data.secret_hash === null)).to.equal(true);
    // Without read on events, no replay at all.
    const noEvents = await keyWith(await role([{ content_type: 'collections', actions: ['read'] }]));
    const refused = await asKey(noEvents, v1(s, '/events/stream/?format=ndjson'));
    expect(refused.status).to.equal(403);
    expect(refused.body.error_code).to.equal('permission_denied');
  });

  it('keeps as_of reads to what the key may read', async () => {
    const k = await keyWith(await role([EVENTS, { content_type: 'resources', actions: ['read'], all_objects: false, objects: [a] }]));
    const asOf = `as_of=${encodeURIComponent(new Date().toISOString())}`;
    const own = await asKey(k, v1(s, `/collections/${a}/resources/?${asOf}`));
    expect(own.status).to.equal(200);
    expect(own.body.count).to.equal(2);
    const other = await asKey(k, v1(s, `/collections/${b}/resources/${resources[b]![0]}/?${asOf}`));
    expect(other.status).to.equal(403);
    expect(other.body.error_code).to.equal('permission_denied');
  });
});
