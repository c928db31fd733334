import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('locales over HTTP', () => {
  let s: TestService;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;
  const audit = async (query: string) => (await s.api('GET', v1(`/events/?entity_type=locale&ordering=timestamp&${query}`))).body.results;
  const defaults = async () =>
    (await s.api('GET', v1('/locales/'))).body.filter((l: { is_default: boolean }) => l.is_default).map((l: { code: string }) => l.code);

  before(async () => {
    s = await startTestService({ PLAN: 'free' });
  });
  after(async () => s?.stop());

  it('starts the environment with en (English) as its default, listed as a bare array', async () => {
    const list = await s.api('GET', v1('/locales/'));
    expect(list.status).to.equal(200);
    expect(list.body).to.be.an('array').with.lengthOf(1);
    const [en] = list.body;
    expect(en).to.deep.equal({ name: 'English', code: 'en', environment: s.env, is_default: true, created_at: en.created_at });
    expect(en.created_at).to.match(ISO);
    const one = await s.api('GET', v1('/locales/en/'));
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.equal(en);
  });

  it('creates a locale (201), not the default unless asked, audited as locale:create', async () => {
    const r = await s.api('POST', v1('/locales/'), { name: 'Deutsch', code: 'de' });
    expect(r.status).to.equal(201);
    expect(r.body).to.deep.equal({ name: 'Deutsch', code: 'de', environment: s.env, is_default: false, created_at: r.body.created_at });
    expect(r.body.created_at).to.match(ISO);
    expect((await s.api('GET', v1('/locales/de/'))).body).to.deep.equal(r.body);
    const [entry] = await audit('event_type=create');
    expect(entry).to.include({ event_type: 'create', entity_type: 'locale', entity_key: 'de' });
    expect(entry.metadata).to.deep.equal({ code: 'de', name: 'Deutsch', is_default: false });
  });

  it('lists every locale as a bare array, oldest first, whatever limit and offset say (the product shape)', async () => {
    const all = await s.api('GET', v1('/locales/?limit=1&offset=1'));
    expect(all.status).to.equal(200);
    expect(all.body.map((l: { code: string }) => l.code)).to.deep.equal(['en', 'de']);
  });

  it('refuses a third locale on the free plan with 403 plan_limit_exceeded for locales (en counts)', async () => {
    const r = await s.api('POST', v1('/locales/'), { name: 'Français', code: 'fr' });
    expect(r.status).to.equal(403);
    expect(r.body.error_code).to.equal('plan_limit_exceeded');
    expect(r.body.detail).to.deep.equal({ entity: 'locales', current: 2, limit: 2, upgrade_url: '/organizations/plan/' });
    expect((await s.api('GET', v1('/locales/fr/'))).status).to.equal(404);
  });

  it('refuses a code already used in the environment with 422 validation_error', async () => {
    for (const code of ['de', 'en']) {
      const r = await s.api('POST', v1('/locales/'), { name: 'Again', code });
      expect(r.status, code).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
      expect(r.body.detail).to.have.property('code');
    }
  });

  it('refuses bad create bodies with 422 validation_error naming the field', async () => {
    for (const [body, field] of [
      [{ code: 'it' }, 'name'],
      [{ name: '', code: 'it' }, 'name'],
      [{ name: 'n'.repeat(101), code: 'it' }, 'name'],
      [{ name: 'Italiano' }, 'code'],
      [{ name: 'Italiano', code: '' }, 'code'],
      [{ name: 'Italiano', code: 'a'.repeat(51) }, 'code'],
      [{ name: 'Italiano', code: 'en-US' }, 'code'],
      [{ name: 'Italiano', code: 'en_' }, 'code'],
      [{ name: 'Italiano', code: '_en' }, 'code'],
      [{ name: 'Italiano', code: 'en__US' }, 'code'],
      [{ name: 'Italiano', code: 'it1' }, 'code'],
      [{ name: 'Italiano', code: 'it', is_default: 'true' }, 'is_default'],
      [{ name: 'Italiano', code: 'it', environment: 'x' }, 'environment'],
    ] as const) {
      const r = await s.api('POST', v1('/locales/'), body);
      expect(r.status, JSON.stringify(body)).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
      expect(r.body.detail).to.have.property(field);
    }
  });

  it('renames a locale with PUT (200), keeping is_default, audited as locale:update', async () => {
    const r = await s.api('PUT', v1('/locales/en/'), { name: 'English (US)' });
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ code: 'en', name: 'English (US)', is_default: true, environment: s.env });
    const [entry] = (await audit('event_type=update')).slice(-1);
    expect(entry).to.include({ entity_key: 'en' });
    expect(entry.metadata).to.deep.equal({ code: 'en', name: 'English (US)', is_default: true });
  });

  it('moves the default with is_default=true: exactly one default, both changes audited', async () => {
    const r = await s.api('PUT', v1('/locales/de/'), { is_default: true });
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ code: 'de', is_default: true, name: 'Deutsch' });
    expect((await s.api('GET', v1('/locales/en/'))).body.is_default).to.equal(false);
    expect(await defaults()).to.deep.equal(['de']);
    const updates = (await audit('event_type=update')).slice(-2).map((e: { metadata: unknown }) => e.metadata);
    expect(updates).to.deep.equal([
      { code: 'de', name: 'Deutsch', is_default: true },
      { code: 'en', name: 'English (US)', is_default: false },
    ]);
  });

  it('refuses to un-default or delete the default locale with 422 validation_error', async () => {
    const off = await s.api('PUT', v1('/locales/de/'), { is_default: false });
    expect(off.status).to.equal(422);
    expect(off.body.error_code).to.equal('validation_error');
    const del = await s.api('DELETE', v1('/locales/de/'));
    expect(del.status).to.equal(422);
    expect(del.body.error_code).to.equal('validation_error');
    expect(await defaults()).to.deep.equal(['de']);
  });

  it('refuses a code change on PUT with 422 validation_error and accepts the code echoed', async () => {
    const change = await s.api('PUT', v1('/locales/en/'), { code: 'fr' });
    expect(change.status).to.equal(422);
    expect(change.body.detail).to.have.property('code');
    const echo = await s.api('PUT', v1('/locales/en/'), { code: 'en', name: 'English' });
    expect(echo.status).to.equal(200);
    expect(echo.body).to.include({ code: 'en', name: 'English', is_default: false });
  });

  it('refuses bad update bodies with 422 validation_error', async () => {
    for (const body of [{}, { name: '' }, { name: 'n'.repeat(101) }, { is_default: 1 }, { is_default: null }, { created_at: 'x' }]) {
      const r = await s.api('PUT', v1('/locales/en/'), body);
      expect(r.status, JSON.stringify(body)).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
    }
  });

  it('answers 404 not_found for an unknown code on GET, PUT and DELETE', async () => {
    for (const [method, body] of [['GET', undefined], ['PUT', { name: 'X' }], ['DELETE', undefined]] as const) {
      const r = await s.api(method, v1('/locales/xx/'), body);
      expect(r.status, method).to.equal(404);
      expect(r.body.error_code).to.equal('not_found');
    }
  });

  it('deletes a locale (204) with its snapshot in the audit, freeing quota and code', async () => {
    const r = await s.api('DELETE', v1('/locales/en/'));
    expect(r.status).to.equal(204);
    expect((await s.api('GET', v1('/locales/en/'))).status).to.equal(404);
    const [entry] = await audit('event_type=delete');
    expect(entry).to.include({ event_type: 'delete', entity_type: 'locale', entity_key: 'en' });
    expect(entry.metadata).to.deep.equal({ code: 'en', name: 'English', is_default: false, snapshot: { code: 'en', name: 'English', is_default: false } });
    const again = await s.api('POST', v1('/locales/'), { name: 'English', code: 'en_US', is_default: true });
    expect(again.status).to.equal(201);
    expect(await defaults()).to.deep.equal(['en_US']);
    expect((await s.api('GET', v1('/locales/'))).body).to.have.lengthOf(2);
  });

  it('holds the starter quota of 5 under concurrent creates, and pro has no locale quota', async () => {
    const starter = await startTestService({ PLAN: 'starter' });
    try {
      const codes = ['de', 'fr', 'it', 'es', 'nl', 'pt', 'sv', 'da'];
      const results = await Promise.all(codes.map((code) => starter.api('POST', `/v1/${starter.env}/locales/`, { name: code, code })));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((st) => st === 201)).to.have.length(4);
      expect(statuses.filter((st) => st === 403)).to.have.length(4);
      expect(results.find((r) => r.status === 403)?.body.detail).to.deep.equal({ entity: 'locales', current: 5, limit: 5, upgrade_url: '/organizations/plan/' });
      expect((await starter.api('GET', `/v1/${starter.env}/locales/`)).body).to.have.lengthOf(5);
    } finally {
      await starter.stop();
    }
    const pro = await startTestService({ PLAN: 'pro' });
    try {
      for (let i = 0; i < 8; i++) {
        const code = `l${'abcdefgh'[i]}`;
        expect((await pro.api('POST', `/v1/${pro.env}/locales/`, { name: code, code })).status, code).to.equal(201);
      }
      expect((await pro.api('GET', `/v1/${pro.env}/locales/`)).body).to.have.lengthOf(9);
    } finally {
      await pro.stop();
    }
  });
});
