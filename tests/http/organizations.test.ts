import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const ORGANIZATION_KEYS = [
  'key', 'name', 'owner', 'tax_num', 'city', 'province', 'address', 'country_iso', 'zip_code', 'legal_name', 'created_at', 'block_dt', 'block_reason', 'is_blocked',
];
const ENVIRONMENT_KEYS = [
  'key', 'name', 'project', 'host', 'has_custom_cname', 'is_enabled', 'is_production', 'created_at',
  'protection_level', 'protection_level_display', 'protected_by_user', 'protected_at', 'protection_reason',
];

describe('organizations, regions, projects and environments over HTTP', () => {
  let s: TestService;
  let org: string;
  const orgPath = (path = '') => `/organizations/${org}/${path}`;
  const globalEvents = async (query: string) => (await s.api('GET', `/v1/global-events/?ordering=timestamp&${query}`)).body.results;

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    org = (await s.api('GET', '/organizations/')).body[0].key;
  });
  after(async () => s?.stop());

  it('lists the caller\'s organization as a bare array with the product\'s organization object', async () => {
    const list = await s.api('GET', '/organizations/');
    expect(list.status).to.equal(200);
    expect(list.body).to.be.an('array').with.length(1);
    const [one] = list.body;
    expect(one).to.have.all.keys(...ORGANIZATION_KEYS);
    expect(one.owner).to.have.all.keys('key', 'email', 'first_name', 'last_name', 'full_name');
    expect(one.owner.email).to.equal('admin@localhost');
    expect(one).to.include({ is_blocked: false, block_dt: null, block_reason: null });
    expect(one.created_at).to.match(ISO);
    expect((await s.api('GET', orgPath())).body).to.deep.equal(one);
  });

  it('updates the organization\'s details (200) with a customer:update audit entry; bad details are 422', async () => {
    const r = await s.api('PUT', orgPath(), { name: 'Acme', legal_name: 'Acme Ltd', country_iso: 'DE', city: 'Berlin' });
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ key: org, name: 'Acme', legal_name: 'Acme Ltd', country_iso: 'DE', city: 'Berlin', tax_num: null });
    const bad = await s.api('PUT', orgPath(), { country_iso: 'Germany', color: 'red' });
    expect(bad.status).to.equal(422);
    expect(bad.body.error_code).to.equal('validation_error');
    expect(bad.body.detail).to.have.keys('country_iso', 'color');
    expect((await s.api('PUT', orgPath(), { name: '' })).status).to.equal(422);
    const [entry] = await globalEvents(`entity_type=customer&event_type=update&entity_key=${org}`);
    expect(entry).to.include({ entity_type: 'customer', event_type: 'update', entity_key: org, actor_type: 'user' });
  });

  it('answers 404 for another organization and 403 for a management API key', async () => {
    expect((await s.api('GET', '/organizations/nosuchorg/')).body.error_code).to.equal('not_found');
    expect((await s.api('GET', '/organizations/nosuchorg/projects/')).status).to.equal(404);
    const key = (await s.api('POST', `/v1/${s.env}/permissions/management-api/api-keys/`, { description: 'k' })).body;
    const asKey = { authorization: `Bearer ${key.public_key}:${key.secret_key}` };
    for (const path of ['/organizations/', orgPath(), orgPath('projects/'), orgPath('plan/')]) {
      const r = await s.api('GET', path, undefined, asKey);
      expect(r.status, path).to.equal(403);
      expect(r.body.error_code).to.equal('permission_denied');
    }
    expect((await s.api('GET', '/organizations/', undefined, { authorization: 'Bearer nope' })).status).to.equal(401);
  });

  it('lists regions as a bare array of {location, name, code}', async () => {
    const r = await s.api('GET', '/regions/');
    expect(r.status).to.equal(200);
    expect(r.body).to.be.an('array').with.length.greaterThan(0);
    for (const region of r.body) expect(region).to.have.all.keys('location', 'name', 'code');
  });

  it('shows the bootstrap project in the list envelope with its production environment', async () => {
    const r = await s.api('GET', orgPath('projects/'));
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ count: 1, next: null, previous: null });
    const [project] = r.body.results;
    expect(project).to.have.all.keys('key', 'name', 'organization', 'region', 'environments', 'gdpr', 'created_at');
    expect(project.region).to.have.all.keys('location', 'name', 'code');
    expect(project.environments).to.have.length(1);
    expect(project.environments[0]).to.have.all.keys(...ENVIRONMENT_KEYS);
    expect(project.environments[0]).to.include({ key: s.env, is_production: true, is_enabled: true, protection_level: 'none' });
  });

  it('creates a project (201) with one production environment, audited as project:create and environment:create', async () => {
    const r = await s.api('POST', orgPath('projects/'), { name: 'Shop', gdpr: true });
    expect(r.status).to.equal(201);
    expect(r.body).to.include({ name: 'Shop', organization: org, gdpr: true });
    expect(r.body.region.code).to.equal('local');
    expect(r.body.environments).to.have.length(1);
    const [production] = r.body.environments;
    expect(production).to.include({ name: 'Production', is_production: true, is_enabled: true, project: r.body.key });
    expect((await s.api('GET', orgPath(`projects/${r.body.key}/`))).body).to.deep.equal(r.body);
    const [created] = await globalEvents(`entity_type=project&entity_key=${r.body.key}`);
    expect(created).to.include({ event_type: 'create', entity_type: 'project' });
    const envEvents = await globalEvents(`entity_type=environment&project_key=${r.body.key}`);
    expect(envEvents.map((e: { entity_key: string }) => e.entity_key)).to.deep.equal([production.key]);
    expect(envEvents[0].metadata).to.deep.equal({ project_key: r.body.key });
    // The new environment has its own default locale en and nothing else.
    const locales = await s.api('GET', `/v1/${production.key}/locales/`);
    expect(locales.body.map((l: { code: string; is_default: boolean }) => [l.code, l.is_default])).to.deep.equal([['en', true]]);
    expect((await s.api('GET', `/v1/${production.key}/collections/tree/`)).body.count).to.equal(0);
  });

  it('refuses bad project bodies with 422 and unknown projects with 404 project_not_found', async () => {
    for (const body of [{}, { name: '' }, { name: 'x', region: 'mars' }, { name: 'x', gdpr: 'yes' }, { name: 'x', extra: 1 }]) {
      const r = await s.api('POST', orgPath('projects/'), body);
      expect(r.status, JSON.stringify(body)).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
    }
    for (const [method, path] of [['GET', 'projects/nope/'], ['PUT', 'projects/nope/'], ['DELETE', 'projects/nope/'], ['GET', 'projects/nope/environments/']]) {
      const r = await s.api(method!, orgPath(path), method === 'PUT' ? { name: 'x' } : undefined);
      expect(r.status, `${method} ${path}`).to.equal(404);
      expect(r.body.error_code).to.equal('project_not_found');
    }
  });

  it('renames a project and toggles its GDPR mode (200) but never moves its region', async () => {
    const p = (await s.api('POST', orgPath('projects/'), { name: 'Blog' })).body;
    const r = await s.api('PUT', orgPath(`projects/${p.key}/`), { name: 'Journal', gdpr: true, region: 'local' });
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ name: 'Journal', gdpr: true });
    const moved = await s.api('PUT', orgPath(`projects/${p.key}/`), { region: 'elsewhere' });
    expect(moved.status).to.equal(422);
    expect(moved.body.detail).to.have.key('region');
    const [updated] = await globalEvents(`entity_type=project&event_type=update&entity_key=${p.key}`);
    expect(updated).to.include({ entity_type: 'project', event_type: 'update' });
  });

  it('creates, lists (bare array), gets, renames and deletes environments with their audit entries and snapshot', async () => {
    const p = (await s.api('POST', orgPath('projects/'), { name: 'Docs' })).body;
    const base = orgPath(`projects/${p.key}/environments/`);
    const created = await s.api('POST', base, { name: 'Staging' });
    expect(created.status).to.equal(201);
    expect(created.body).to.have.all.keys(...ENVIRONMENT_KEYS);
    expect(created.body).to.include({ name: 'Staging', is_production: false, is_enabled: true, project: p.key, protection_level: 'none' });
    const env = created.body.key;
    const list = await s.api('GET', base);
    expect(list.body).to.be.an('array');
    expect(list.body.map((e: { key: string }) => e.key)).to.deep.equal([p.environments[0].key, env]);
    expect((await s.api('GET', `${base}${env}/`)).body).to.deep.equal(created.body);
    const renamed = await s.api('PUT', `${base}${env}/`, { name: 'QA' });
    expect(renamed.status).to.equal(200);
    expect(renamed.body.name).to.equal('QA');
    expect((await s.api('POST', base, { name: '' })).status).to.equal(422);
    expect((await s.api('PUT', `${base}${env}/`, {})).status).to.equal(422);
    expect((await s.api('GET', `${base}nope/`)).body.error_code).to.equal('environment_not_found');

    const removed = await s.api('DELETE', `${base}${env}/`);
    expect(removed.status).to.equal(204);
    expect((await s.api('GET', `${base}${env}/`)).status).to.equal(404);
    expect((await s.api('GET', `/v1/${env}/locales/`)).status).to.equal(404);
    const events = await globalEvents(`entity_type=environment&entity_key=${env}`);
    expect(events.map((e: { event_type: string }) => e.event_type)).to.deep.equal(['create', 'update', 'delete']);
    expect(events[2].metadata).to.deep.equal({
      project_key: p.key,
      snapshot: {
        name: 'QA', host: '', project_key: p.key, project_id: p.key, customer_key: org,
        block_reason: null, block_last_state_enabled: true, protected_by_user_uid: null,
      },
    });
    const production = await s.api('DELETE', `${base}${p.environments[0].key}/`);
    expect(production.status).to.equal(422);
    expect(production.body.detail).to.have.key('is_production');
  });

  it('deletes a project with its environments (204) and a project:delete snapshot', async () => {
    const p = (await s.api('POST', orgPath('projects/'), { name: 'Old', gdpr: true })).body;
    const env = p.environments[0].key;
    expect((await s.api('GET', `/v1/${env}/locales/`)).status).to.equal(200);
    expect((await s.api('DELETE', orgPath(`projects/${p.key}/`))).status).to.equal(204);
    expect((await s.api('GET', orgPath(`projects/${p.key}/`))).status).to.equal(404);
    expect((await s.api('GET', `/v1/${env}/locales/`)).body.error_code).to.equal('environment_not_found');
    const [deleted] = await globalEvents(`entity_type=project&event_type=delete&entity_key=${p.key}`);
    expect(deleted.metadata).to.deep.equal({
      snapshot: { name: 'Old', gdpr: true, customer_key: org, region_key: 'local', region_code: 'local', region_name: 'This installation' },
    });
    const byProject = await globalEvents(`project_key=${p.key}`);
    expect(byProject.map((e: { entity_type: string; event_type: string }) => `${e.entity_type}:${e.event_type}`)).to.deep.equal([
      'project:create', 'environment:create', 'project:delete',
    ]);
  });
});
