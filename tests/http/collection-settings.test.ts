import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

describe('collection settings over HTTP: auto_remove_revisions, auto_remove_schema_versions and strict_reference', function () {
  let s: TestService;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;

  before(async () => {
    s = await startTestService();
  });
  after(async () => s?.stop());

  it('accepts both settings on create (5..100) and returns them on create, get and list', async () => {
    const r = await s.api('POST', v1('/collections/tree/'), { name: 'Tidy', alias: 'tidy', auto_remove_revisions: 5, auto_remove_schema_versions: 100 });
    expect(r.status).to.equal(201);
    expect(r.body).to.include({ auto_remove_revisions: 5, auto_remove_schema_versions: 100 });
    const got = await s.api('GET', v1(`/collections/tree/collection/?key=${r.body.key}`));
    expect(got.body).to.include({ auto_remove_revisions: 5, auto_remove_schema_versions: 100 });
    const list = await s.api('GET', v1('/folders/tree/'));
    expect(list.body.results.find((c: { key: string }) => c.key === r.body.key)).to.include({ auto_remove_revisions: 5, auto_remove_schema_versions: 100 });
  });

  it('defaults both settings to null and accepts an explicit null', async () => {
    const r = await s.api('POST', v1('/collections/tree/'), { name: 'Plain', alias: 'plain', auto_remove_revisions: null });
    expect(r.status).to.equal(201);
    expect(r.body).to.include({ auto_remove_revisions: null, auto_remove_schema_versions: null });
  });

  it('refuses values outside 5..100, fractions and strings with 422 validation_error naming the field', async () => {
    for (const [field, value] of [
      ['auto_remove_revisions', 4],
      ['auto_remove_revisions', 101],
      ['auto_remove_revisions', 5.5],
      ['auto_remove_schema_versions', '10'],
      ['auto_remove_schema_versions', 0],
      ['auto_remove_schema_versions', true],
    ] as const) {
      const r = await s.api('POST', v1('/collections/tree/'), { name: 'Bad', alias: `bad${String(value).replace(/\W/g, '')}`, [field]: value });
      expect(r.status, `${field}=${String(value)}`).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
      expect(r.body.detail).to.have.property(field);
    }
    const list = await s.api('GET', v1('/collections/tree/'));
    expect(list.body.results.map((c: { alias: string }) => c.alias)).to.deep.equal(['plain', 'tidy']);
  });

  it('refuses strict_reference on a root collection and a non-strict child of a strict collection with 422 validation_error', async () => {
    const root = await s.api('POST', v1('/collections/tree/'), { name: 'Strict root', alias: 'strict-root', strict_reference: true });
    expect(root.status).to.equal(422);
    expect(root.body.error_code).to.equal('validation_error');
    expect(root.body.detail).to.deep.equal({ strict_reference: ['requires a parent'] });
    const courses = await s.api('POST', v1('/collections/tree/'), { name: 'Courses', alias: 'courses' });
    const modules = await s.api('POST', v1('/collections/tree/'), { name: 'Modules', alias: 'modules', parent: courses.body.key, strict_reference: true });
    expect(modules.status).to.equal(201);
    expect(modules.body).to.include({ strict_reference: true, path: 'courses.modules' });
    for (const body of [{ strict_reference: false }, {}]) {
      const loose = await s.api('POST', v1('/collections/tree/'), { name: 'Lessons', alias: 'lessons', parent: modules.body.key, ...body });
      expect(loose.status, JSON.stringify(body)).to.equal(422);
      expect(loose.body.error_code).to.equal('validation_error');
      expect(loose.body.detail).to.deep.equal({ strict_reference: ['must be true'] });
    }
    const under = await s.api('GET', v1(`/collections/tree/?key=${courses.body.key}&mode=descendants`));
    expect(under.body.results.map((c: { path: string }) => c.path)).to.deep.equal(['courses.modules']);
    const lessons = await s.api('POST', v1('/collections/tree/'), { name: 'Lessons', alias: 'lessons', parent: modules.body.key, strict_reference: true });
    expect(lessons.status).to.equal(201);
    expect(lessons.body).to.include({ strict_reference: true, path: 'courses.modules.lessons' });
  });
});
