import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

describe('environment toggle and protection levels over HTTP', () => {
  let s: TestService;
  let org: string;
  let project: string;
  const envs = () => `/organizations/${org}/projects/${project}/environments/`;
  const newEnv = async (name: string): Promise<string> => (await s.api('POST', envs(), { name })).body.key;
  const deliveryOf = (env: string) => s.delivery.replace(/\/[^/]+$/, `/${env}`);
  const createCollection = (env: string, alias: string) => s.api('POST', `/v1/${env}/collections/tree/`, { name: alias, alias });

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    org = (await s.api('GET', '/organizations/')).body[0].key;
    project = (await s.api('POST', `/organizations/${org}/projects/`, { name: 'States' })).body.key;
  });
  after(async () => s?.stop());

  it('disables an environment: management and delivery requests answer 403 environment_disabled', async () => {
    const env = await newEnv('Off');
    expect((await createCollection(env, 'before')).status).to.equal(201);
    const api = (await s.api('POST', `/v1/${env}/api/`, { name: 'Site', prefix: 'site' })).body;
    expect(api.prefix).to.equal('site');
    const off = await s.api('POST', `${envs()}${env}/toggle/`, { is_enabled: false });
    expect(off.status).to.equal(200);
    expect(off.body.is_enabled).to.equal(false);
    for (const [method, path] of [['GET', '/collections/tree/'], ['POST', '/collections/tree/'], ['GET', '/locales/']]) {
      const r = await s.api(method!, `/v1/${env}${path}`, method === 'POST' ? { name: 'x', alias: 'x' } : undefined);
      expect(r.status, `${method} ${path}`).to.equal(403);
      expect(r.body).to.deep.equal({ message: r.body.message, error_code: 'environment_disabled', detail: { is_enabled: false } });
    }
    const delivered = await s.get(`${deliveryOf(env)}/site/before/`);
    expect(delivered.status).to.equal(403);
    expect(delivered.body.error_code).to.equal('environment_disabled');
    // The environment itself stays readable and other environments are untouched.
    expect((await s.api('GET', `${envs()}${env}/`)).body.is_enabled).to.equal(false);
    expect((await s.api('GET', `/v1/${s.env}/locales/`)).status).to.equal(200);
  });

  it('refuses a second toggle within 300 s with 422 environment_toggle_error; the same state is a no-op', async () => {
    const env = await newEnv('Flip');
    expect((await s.api('POST', `${envs()}${env}/toggle/`, { is_enabled: true })).status).to.equal(200);
    expect((await s.api('POST', `${envs()}${env}/toggle/`, { is_enabled: false })).status).to.equal(200);
    const again = await s.api('POST', `${envs()}${env}/toggle/`, { is_enabled: true });
    expect(again.status).to.equal(422);
    expect(again.body.error_code).to.equal('environment_toggle_error');
    expect(again.body.detail.retry_after).to.be.within(290, 300);
    expect((await s.api('GET', `${envs()}${env}/`)).body.is_enabled).to.equal(false);
    const events = (await s.api('GET', `/v1/global-events/?entity_key=${env}&event_type=update`)).body.results;
    expect(events).to.have.length(1);
    expect(events[0].metadata).to.deep.equal({ project_key: project, action: 'toggle', is_enabled: false });
  });

  it('refuses bad toggle and protection bodies with 422', async () => {
    const env = await newEnv('Bodies');
    for (const body of [{}, { is_enabled: 'false' }, { is_enabled: 0 }, { is_enabled: true, x: 1 }]) {
      expect((await s.api('POST', `${envs()}${env}/toggle/`, body)).status, JSON.stringify(body)).to.equal(422);
    }
    for (const body of [{}, { protection_level: 'frozen' }, { protection_level: 'locked', protection_reason: 5 }]) {
      expect((await s.api('PATCH', `${envs()}${env}/protection/`, body)).status, JSON.stringify(body)).to.equal(422);
    }
    expect((await s.api('POST', `${envs()}nope/toggle/`, { is_enabled: false })).body.error_code).to.equal('environment_not_found');
  });

  it('read_only: every write in the environment is refused with 403 environment_protected, reads are served', async () => {
    const env = await newEnv('Frozen');
    expect((await createCollection(env, 'kept')).status).to.equal(201);
    const protectedEnv = await s.api('PATCH', `${envs()}${env}/protection/`, { protection_level: 'read_only', protection_reason: 'audit' });
    expect(protectedEnv.status).to.equal(200);
    expect(protectedEnv.body).to.include({ protection_level: 'read_only', protection_level_display: 'Read only', protection_reason: 'audit' });
    expect(protectedEnv.body.protected_by_user.email).to.equal('admin@localhost');
    expect(protectedEnv.body.protected_at).to.be.a('string');

    const write = await createCollection(env, 'more');
    expect(write.status).to.equal(403);
    expect(write.body).to.deep.equal({ message: write.body.message, error_code: 'environment_protected', detail: { protection_level: 'read_only' } });
    for (const [method, path, body] of [
      ['POST', '/locales/', { name: 'Deutsch', code: 'de' }],
      ['POST', '/api/', { name: 'A', prefix: 'a' }],
      ['POST', '/components/', { name: 'C' }],
    ] as const) {
      expect((await s.api(method, `/v1/${env}${path}`, body)).body.error_code, path).to.equal('environment_protected');
    }
    expect((await s.api('GET', `/v1/${env}/collections/tree/`)).body.count).to.equal(1);
    expect((await s.api('DELETE', `${envs()}${env}/`)).body.error_code).to.equal('environment_protected');
    // Environment settings stay editable under read_only.
    expect((await s.api('PUT', `${envs()}${env}/`, { name: 'Frozen 2' })).status).to.equal(200);

    const cleared = await s.api('PATCH', `${envs()}${env}/protection/`, { protection_level: 'none' });
    expect(cleared.body).to.include({ protection_level: 'none', protected_by_user: null, protected_at: null, protection_reason: null });
    expect((await createCollection(env, 'more')).status).to.equal(201);
  });

  it('locked: nothing but reads and unlocking, the project cannot be deleted around it', async () => {
    const env = await newEnv('Locked');
    expect((await s.api('PATCH', `${envs()}${env}/protection/`, { protection_level: 'locked' })).status).to.equal(200);
    expect((await createCollection(env, 'x')).body.error_code).to.equal('environment_protected');
    expect((await s.api('PUT', `${envs()}${env}/`, { name: 'Renamed' })).body.error_code).to.equal('environment_protected');
    expect((await s.api('POST', `${envs()}${env}/toggle/`, { is_enabled: false })).body.error_code).to.equal('environment_protected');
    expect((await s.api('DELETE', `/organizations/${org}/projects/${project}/`)).body.error_code).to.equal('environment_protected');
    expect((await s.api('GET', `/v1/${env}/locales/`)).status).to.equal(200);
    expect((await s.api('PATCH', `${envs()}${env}/protection/`, { protection_level: 'none' })).status).to.equal(200);
    expect((await s.api('PUT', `${envs()}${env}/`, { name: 'Renamed' })).status).to.equal(200);
  });
});

describe('a disabled environment after a restart', () => {
  it('stays disabled for management and delivery requests', async () => {
    const first = await startTestService({ PLAN: 'pro' });
    const org = (await first.api('GET', '/organizations/')).body[0].key;
    const project = (await first.api('GET', `/organizations/${org}/projects/`)).body.results[0].key;
    const envs = `/organizations/${org}/projects/${project}/environments/`;
    const env = (await first.api('POST', envs, { name: 'Paused' })).body.key;
    expect((await first.api('POST', `${envs}${env}/toggle/`, { is_enabled: false })).status).to.equal(200);
    await first.stop();
    const again = await startTestService({ PLAN: 'pro' }, first.dataDir);
    try {
      expect((await again.api('GET', `/v1/${env}/locales/`)).body.error_code).to.equal('environment_disabled');
      expect((await again.get(`${again.service.urls.delivery}/${env}/site/x/`)).body.error_code).to.equal('environment_disabled');
      expect((await again.api('GET', `/v1/${again.env}/locales/`)).status).to.equal(200);
    } finally {
      await again.stop();
    }
  });
});
