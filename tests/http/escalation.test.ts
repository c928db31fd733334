import { expect } from 'chai';
import { startTestService, type Reply, type TestService } from '../support/service.js';

type Key = { key: string; public_key: string; secret_key: string };

/**
 * Escalation prevention (docs/decisions/0331): each attack of the issue, tried by a key with a
 * sliver of rights, is refused 403 permission_denied naming the missing right, and writes nothing.
 */
describe('no key grants more than it holds', function () {
  this.timeout(60_000);
  let s: TestService;
  const mgmt = (path = '') => `/v1/${s.env}/permissions/management-api/${path}`;
  const dlv = (path = '') => `/v1/${s.env}/permissions/delivery-api/${path}`;
  const as = (k: Key, method: string, path: string, body?: unknown) => s.api(method, path, body, { authorization: `Simple ${k.public_key}:${k.secret_key}` });
  const eventCount = async (): Promise<number> => (await s.api('GET', `/v1/${s.env}/events/?limit=1`)).body.count;

  /** A role made by the administrator, of `kind`, with the permissions and full access given. */
  const role = async (kind: 'management' | 'delivery', permissions: object[], full_access = false): Promise<string> => {
    const base = kind === 'management' ? mgmt : dlv;
    const created = await s.api('POST', base('roles/'), kind === 'management' ? { name: 'r', full_access } : { name: 'r' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    if (permissions.length) expect((await s.api('POST', base(`roles/${created.body.key}/permissions/batch/`), permissions)).status).to.equal(200);
    return created.body.key;
  };
  const key = async (kind: 'management' | 'delivery', roleKey: string | null): Promise<Key> => {
    const r = await s.api('POST', (kind === 'management' ? mgmt : dlv)('api-keys/'), { role: roleKey });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body;
  };

  /** The `http_refusals_total` counts of permission_denied on the management interface, by route template. */
  const refusalCounts = async (): Promise<Map<string, number>> => {
    const text = await (await fetch(`${s.base}/metrics`)).text();
    const line = /^http_refusals_total\{([^}]*)\} (\d+)$/gm;
    const counts = new Map<string, number>();
    for (const [, labels, value] of text.matchAll(line)) {
      if (labels!.includes('interface="management"') && labels!.includes('error_code="permission_denied"')) counts.set(/route="([^"]*)"/.exec(labels!)![1]!, Number(value));
    }
    return counts;
  };
  const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

  /** Sends the request as the key and expects a refusal naming `missing`, with no event written and the 403 counted by route. */
  const refused = async (send: () => Promise<Reply>, missing: string | RegExp) => {
    const before = await eventCount();
    const counted = await refusalCounts();
    const r = await send();
    expect(r.status, JSON.stringify(r.body)).to.equal(403);
    expect(r.body.error_code).to.equal('permission_denied');
    if (typeof missing === 'string') expect(r.body.detail.missing_right).to.equal(missing);
    else expect(r.body.detail.missing_right).to.match(missing);
    expect(await eventCount(), 'a refused escalation writes no event').to.equal(before);
    const after = await refusalCounts();
    expect(total(after), 'the 403 is counted').to.equal(total(counted) + 1);
    const grown = [...after].find(([route, n]) => n > (counted.get(route) ?? 0));
    expect(grown?.[0]).to.match(/^\/v1\/:env\/permissions\//);
  };

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
  });
  after(async () => s?.stop());

  it('refuses a key that may update only itself the change of its own role to null', async () => {
    const own = await role('management', []);
    const k = await key('management', own);
    expect((await s.api('POST', mgmt(`roles/${own}/permissions/`), { content_type: 'management-api', actions: ['update'], all_objects: false, objects: [k.key] })).status).to.equal(201);
    await refused(() => as(k, 'PUT', mgmt(`api-keys/${k.key}/`), { role: null }), /own role/);
    expect((await s.api('GET', mgmt(`api-keys/${k.key}/`))).body.role).to.equal(own);
    const renamed = await as(k, 'PUT', mgmt(`api-keys/${k.key}/`), { description: 'renamed', role: own });
    expect(renamed.status, 'keeping its role is no change').to.equal(200);
  });

  describe('a key holding management-api create and update', () => {
    let own: string;
    let k: Key;
    before(async () => {
      own = await role('management', [{ content_type: 'management-api', actions: ['create', 'read', 'update'] }]);
      k = await key('management', own);
    });

    it('creates no key without a role and no full-access role', async () => {
      await refused(() => as(k, 'POST', mgmt('api-keys/'), { role: null }), /full access/);
      await refused(() => as(k, 'POST', mgmt('roles/'), { name: 'admin', full_access: true }), /full access/);
    });

    it('neither makes its own role full access nor adds to it a right it lacks', async () => {
      await refused(() => as(k, 'PUT', mgmt(`roles/${own}/`), { full_access: true }), /full access/);
      await refused(() => as(k, 'POST', mgmt(`roles/${own}/permissions/`), { content_type: 'collections', actions: ['read'] }), 'collections: read on all objects');
      await refused(
        () => as(k, 'POST', mgmt(`roles/${own}/permissions/batch/`), [{ content_type: 'management-api', actions: ['create', 'read', 'update', 'delete'] }]),
        'management-api: delete on all objects',
      );
    });

    it('binds no key, itself included, to a wider role', async () => {
      const wider = await role('management', [{ content_type: 'locales', actions: ['read'] }]);
      const other = await key('management', own);
      await refused(() => as(k, 'PUT', mgmt(`api-keys/${other.key}/`), { role: wider }), 'locales: read on all objects');
      await refused(() => as(k, 'PUT', mgmt(`api-keys/${k.key}/`), { role: wider }), /own role/);
      await refused(() => as(k, 'POST', mgmt('api-keys/'), { role: wider }), 'locales: read on all objects');
      const admin = await role('management', [], true);
      await refused(() => as(k, 'PUT', mgmt(`api-keys/${other.key}/`), { role: admin }), /full access/);
    });

    it('widens no list of objects beyond its own', async () => {
      const listed = await role('management', [{ content_type: 'management-api', actions: ['read'], all_objects: false, objects: ['a'] }]);
      const narrow = await key('management', await role('management', [{ content_type: 'management-api', actions: ['read', 'update'], all_objects: false, objects: ['a', listed] }]));
      await refused(() => as(narrow, 'POST', mgmt(`roles/${listed}/permissions/objects/`), { content_type: 'management-api', object_key: 'b' }), /management-api: (read|update) on /);
    });

    it('still grants what it holds: a narrower role, and a key bound to it', async () => {
      const made = await as(k, 'POST', mgmt('roles/'), { name: 'reader' });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      expect((await as(k, 'POST', mgmt(`roles/${made.body.key}/permissions/`), { content_type: 'management-api', actions: ['read'] })).status).to.equal(201);
      const bound = await as(k, 'POST', mgmt('api-keys/'), { role: made.body.key });
      expect(bound.status, JSON.stringify(bound.body)).to.equal(201);
    });
  });

  describe('delivery keys and roles', () => {
    it('refuses a key holding only delivery-api create a delivery key without a role', async () => {
      const k = await key('management', await role('management', [{ content_type: 'delivery-api', actions: ['create'] }]));
      await refused(() => as(k, 'POST', dlv('api-keys/'), { role: null }), /full access/);
    });

    it('grants delivery rights only on the collections and APIs its own role may read', async () => {
      const k = await key('management', await role('management', [
        { content_type: 'delivery-api', actions: ['create', 'read', 'update'] },
        { content_type: 'flux-apis', actions: ['read'] },
        { content_type: 'collections', actions: ['read'], all_objects: false, objects: ['c1'] },
      ]));
      const made = await as(k, 'POST', dlv('roles/'), { name: 'reader' });
      expect(made.status).to.equal(201);
      const ok = await as(k, 'POST', dlv(`roles/${made.body.key}/permissions/batch/`), [
        { content_type: 'flux-apis', actions: ['read'] },
        { content_type: 'collections', actions: ['read'], all_objects: false, objects: ['c1'] },
      ]);
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      await refused(() => as(k, 'POST', dlv(`roles/${made.body.key}/permissions/objects/`), { content_type: 'collections', object_key: 'c2' }), 'collections: read on c1, c2');
      await refused(() => as(k, 'DELETE', dlv(`roles/${made.body.key}/permissions/?content_type=collections`)), 'collections: read on all objects');
      await refused(
        () =>
          as(k, 'POST', dlv(`roles/${made.body.key}/permissions/batch/`), [
            { content_type: 'flux-apis', actions: ['read', 'create'] },
            { content_type: 'collections', actions: ['read', 'create'], all_objects: false, objects: ['c1'] },
          ]),
        'resources: create on c1',
      );
      const bound = await as(k, 'POST', dlv('api-keys/'), { role: made.body.key });
      expect(bound.status).to.equal(201);
      const wide = await role('delivery', [{ content_type: 'flux-apis', actions: ['read'] }]);
      await refused(() => as(k, 'PUT', dlv(`api-keys/${bound.body.key}/`), { role: wide }), 'collections: read on all objects');
    });

    it('issues no bearer token for a key with more rights than the caller', async () => {
      const k = await key('management', await role('management', [{ content_type: 'delivery-api', actions: ['update'] }]));
      const unrestricted = await key('delivery', null);
      await refused(() => as(k, 'POST', dlv(`api-keys/${unrestricted.key}/bearer-token/`)), /full access/);
      expect((await s.api('POST', dlv(`api-keys/${unrestricted.key}/bearer-token/`))).status, 'the administrator may').to.equal(201);
    });
  });
});
