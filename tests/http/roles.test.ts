import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

describe('management and delivery roles with permissions', () => {
  let s: TestService;
  const roles = (kind: string) => `/v1/${s.env}/permissions/${kind}/roles/`;

  before(async () => {
    s = await startTestService({ PLAN: 'starter' });
  });
  after(async () => s?.stop());

  it('creates, reads, updates and lists a management role (full_access shown) and a delivery role (no full_access)', async () => {
    const m = await s.api('POST', roles('management-api'), { name: 'Editors', description: 'content', full_access: false });
    expect(m.status).to.equal(201);
    expect(m.body).to.have.all.keys('key', 'name', 'description', 'full_access', 'environment', 'created_at');
    const d = await s.api('POST', roles('flux-api'), { name: 'Readers' });
    expect(d.status).to.equal(201);
    expect(d.body).to.have.all.keys('key', 'name', 'description', 'environment', 'created_at');
    expect((await s.api('POST', roles('delivery-api'), { name: 'x', full_access: true })).status).to.equal(422);
    const put = await s.api('PUT', `${roles('management-api')}${m.body.key}/`, { full_access: true });
    expect(put.status).to.equal(200);
    expect(put.body).to.include({ name: 'Editors', description: 'content', full_access: true });
    expect((await s.api('GET', `${roles('delivery-api')}${d.body.key}/`)).body.name).to.equal('Readers');
    expect((await s.api('GET', `${roles('delivery-api')}${m.body.key}/`)).status).to.equal(404);
    const list = await s.api('GET', roles('management-api'));
    expect(list.body.results.map((r: { key: string }) => r.key)).to.deep.equal([m.body.key]);
  });

  it('upserts, lists, replaces and deletes permissions, with object lists of at most 50', async () => {
    const role = (await s.api('POST', roles('delivery-api'), { name: 'Scoped' })).body.key;
    const perms = `${roles('delivery-api')}${role}/permissions/`;
    const first = await s.api('POST', perms, { content_type: 'flux-apis', actions: ['read'], all_objects: false, objects: ['a1'] });
    expect(first.status).to.equal(201);
    expect(first.body).to.deep.equal({ content_type: 'flux-apis', actions: ['read'], all_objects: false, objects: ['a1'] });
    const again = await s.api('POST', perms, { content_type: 'flux-apis', actions: ['read', 'create'], all_objects: true });
    expect(again.body).to.deep.include({ actions: ['read', 'create'], all_objects: true });
    expect((await s.api('GET', perms)).body).to.have.length(1);
    const tooMany = await s.api('POST', perms, { content_type: 'flux-apis', actions: ['read'], all_objects: false, objects: Array.from({ length: 51 }, (_, i) => `o${i}`) });
    expect(tooMany.status).to.equal(422);
    expect((await s.api('POST', perms, { content_type: 'folders', actions: ['read'] })).status).to.equal(422);
    expect((await s.api('POST', perms, { content_type: 'flux-apis', actions: ['delete'] })).status).to.equal(422);
    const batch = await s.api('POST', `${perms}batch/`, [
      { content_type: 'collections', actions: ['read'], all_objects: false, objects: ['c1'] },
    ]);
    expect(batch.status).to.equal(200);
    expect(batch.body).to.deep.equal([{ content_type: 'collections', actions: ['read'], all_objects: false, objects: ['c1'] }]);
    expect((await s.api('DELETE', `${perms}?content_type=flux-apis`)).status).to.equal(404);
    expect((await s.api('DELETE', perms)).status).to.equal(422);
    expect((await s.api('DELETE', `${perms}?content_type=collections`)).status).to.equal(204);
    expect((await s.api('GET', perms)).body).to.deep.equal([]);
    expect((await s.api('GET', `${roles('delivery-api')}nope/permissions/`)).status).to.equal(404);
  });

  it('adds, lists and removes permission objects, refusing the 51st', async () => {
    const role = (await s.api('POST', roles('management-api'), { name: 'Objects' })).body.key;
    const perms = `${roles('management-api')}${role}/permissions/`;
    await s.api('POST', perms, { content_type: 'resources', actions: ['read'], all_objects: false, objects: Array.from({ length: 49 }, (_, i) => `c${i}`) });
    const added = await s.api('POST', `${perms}objects/`, { content_type: 'resources', object_key: 'last' });
    expect(added.status).to.equal(201);
    const listed = await s.api('GET', `${perms}objects/?content_type=resources`);
    expect(listed.body).to.have.length(50);
    expect(listed.body.at(-1)).to.deep.equal({ content_type: 'resources', object_key: 'last' });
    const over = await s.api('POST', `${perms}objects/`, { content_type: 'resources', object_key: 'one-more' });
    expect(over.status).to.equal(422);
    expect((await s.api('DELETE', `${perms}objects/`, { content_type: 'resources', object_key: 'last' })).status).to.equal(204);
    expect((await s.api('DELETE', `${perms}objects/`, { content_type: 'resources', object_key: 'last' })).status).to.equal(404);
    expect((await s.api('GET', `${perms}objects/?content_type=resources`)).body).to.have.length(49);
  });

  it('counts the object IDs of all a role\'s permissions together: at most 50 per role', async () => {
    const role = (await s.api('POST', roles('management-api'), { name: 'Fifty' })).body.key;
    const perms = `${roles('management-api')}${role}/permissions/`;
    const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    expect((await s.api('POST', perms, { content_type: 'collections', actions: ['read'], all_objects: false, objects: ids('c', 30) })).status).to.equal(201);
    const over = await s.api('POST', perms, { content_type: 'resources', actions: ['read'], all_objects: false, objects: ids('r', 21) });
    expect(over.status).to.equal(422);
    expect(over.body).to.deep.include({ error_code: 'validation_error', detail: { objects: ['at most 50 objects per role'] } });
    expect((await s.api('POST', perms, { content_type: 'resources', actions: ['read'], all_objects: false, objects: ids('r', 20) })).status).to.equal(201);
    const oneMore = await s.api('POST', `${perms}objects/`, { content_type: 'collections', object_key: 'extra' });
    expect(oneMore.status).to.equal(422);
    const batch = await s.api('POST', `${perms}batch/`, [
      { content_type: 'collections', actions: ['read'], all_objects: false, objects: ids('c', 26) },
      { content_type: 'locales', actions: ['read'], all_objects: false, objects: ids('l', 25) },
    ]);
    expect(batch.status).to.equal(422);
    // Nothing of the refused writes was kept.
    const kept = (await s.api('GET', perms)).body as { content_type: string; objects: string[] }[];
    expect(kept.map((p) => [p.content_type, p.objects.length])).to.deep.equal([['collections', 30], ['resources', 20]]);
    expect((await s.api('DELETE', `${perms}objects/`, { content_type: 'collections', object_key: 'c0' })).status).to.equal(204);
    expect((await s.api('POST', `${perms}objects/`, { content_type: 'resources', object_key: 'extra' })).status).to.equal(201);
    // Frees its slot of the plan's roles quota for the tests after it.
    expect((await s.api('DELETE', `${roles('management-api')}${role}/`)).status).to.equal(204);
  });

  it('audits roles and permissions with the specification types and metadata', async () => {
    const role = (await s.api('POST', roles('delivery-api'), { name: 'Audited', description: 'd' })).body.key;
    await s.api('POST', `${roles('delivery-api')}${role}/permissions/`, { content_type: 'flux-apis', actions: ['read'] });
    await s.api('DELETE', `${roles('delivery-api')}${role}/`);
    const roleEvents = await s.api('GET', `/v1/${s.env}/events/?entity_type=deliveryrole&entity_key=${role}`);
    expect(roleEvents.body.results.map((e: { event_type: string }) => e.event_type)).to.deep.equal(['delete', 'create']);
    expect(roleEvents.body.results[1].metadata).to.deep.equal({ name: 'Audited', description: 'd', full_access: null });
    expect(roleEvents.body.results[0].metadata.snapshot).to.deep.equal({ name: 'Audited', description: 'd', full_access: null });
    const perm = await s.api('GET', `/v1/${s.env}/events/?entity_type=deliverypermissionrole`);
    const ofRole = perm.body.results.filter((e: { metadata: { role_key: string } }) => e.metadata.role_key === role);
    expect(ofRole.map((e: { event_type: string }) => e.event_type)).to.deep.equal(['create']);
    expect(ofRole[0].metadata).to.deep.equal({ role_key: role, content_type: 'flux-apis', actions: ['read'], all_objects: true });
    const envrole = await s.api('GET', `/v1/${s.env}/events/?entity_type=envrole&event_type=update`);
    expect(envrole.body.results[0].metadata).to.deep.equal({ name: 'Editors', description: 'content', full_access: true });
    const mperm = await s.api('GET', `/v1/${s.env}/events/?entity_type=managepermissionrole`);
    expect(mperm.body.results[0].metadata).to.have.all.keys('role_key', 'content_type', 'actions', 'all_objects');
    expect((await s.api('GET', `${roles('delivery-api')}${role}/permissions/`)).status).to.equal(404);
  });

  it('counts management and delivery roles together against roles (403 plan_limit_exceeded)', async () => {
    let count = (await s.api('GET', roles('management-api'))).body.count + (await s.api('GET', roles('delivery-api'))).body.count;
    while (count < 5) {
      expect((await s.api('POST', roles('delivery-api'), { name: `r${count}` })).status).to.equal(201);
      count += 1;
    }
    const over = await s.api('POST', roles('management-api'), { name: 'over' });
    expect(over.status).to.equal(403);
    expect(over.body.detail).to.deep.include({ entity: 'roles', current: 5, limit: 5 });
  });

  it('refuses every custom role on the free plan (limit 0)', async () => {
    const free = await startTestService({ PLAN: 'free' });
    try {
      const r = await free.api('POST', `/v1/${free.env}/permissions/delivery-api/roles/`, { name: 'x' });
      expect(r.status).to.equal(403);
      expect(r.body.detail).to.deep.include({ entity: 'roles', current: 0, limit: 0 });
    } finally {
      await free.stop();
    }
  });
});
