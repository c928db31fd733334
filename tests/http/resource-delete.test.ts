import { expect } from 'chai';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

describe('resource delete over HTTP', () => {
  let s: TestService;
  let courses: string;
  let modules: string;
  let lessons: string;
  const create = async (folder: string, title: string, extra: Record<string, unknown> = {}, query = '') => {
    const r = await s.api('POST', v1(s, `/collections/${folder}/resources/${query}`), { data: { title }, ...extra });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body as { key: string; current_revision: string };
  };
  const get = (folder: string, key: string) => s.api('GET', v1(s, `/collections/${folder}/resources/${key}/`));

  before(async () => {
    s = await startTestService();
    courses = await collectionWithSchema(s, 'courses');
    modules = await collectionWithSchema(s, 'modules', { parent: courses, strict: true });
    lessons = await collectionWithSchema(s, 'lessons', { parent: modules, strict: true });
  });
  after(async () => s?.stop());

  it('deletes the resource and its revisions (204), audited with the snapshot of its last fields', async () => {
    const r = await create(courses, 'Gone', { name: 'Gone course' }, '?external_id=course-1');
    const draft = await s.api('POST', v1(s, `/collections/${courses}/resources/${r.key}/revisions/`), { data: { title: 'Draft' } });
    const deleted = await s.api('DELETE', v1(s, `/collections/${courses}/resources/${r.key}/`));
    expect(deleted.status).to.equal(204);
    expect((await get(courses, r.key)).body.error_code).to.equal('resource_not_found');
    expect((await s.api('GET', v1(s, `/collections/${courses}/resources/${r.key}/data/`))).status).to.equal(404);
    expect((await s.api('GET', v1(s, `/collections/${courses}/resources/${r.key}/revisions/`))).status).to.equal(404);
    for (const revision of [r.current_revision, draft.body.key]) {
      expect((await s.api('GET', v1(s, `/events/?entity_type=revision&entity_key=${revision}`))).body.count, 'revision:create only').to.equal(1);
    }
    const audit = await s.api('GET', v1(s, `/events/?entity_type=resource&event_type=delete&entity_key=${r.key}`));
    expect(audit.body.count).to.equal(1);
    expect(audit.body.results[0].metadata).to.deep.equal({
      folder_key: courses,
      snapshot: { name: 'Gone course', content_type: 'document', document_id: r.key, resource_owner_key: null, current_revision_key: r.current_revision },
    });
    const again = await s.api('DELETE', v1(s, `/collections/${courses}/resources/${r.key}/`));
    expect(again.status).to.equal(404);
    expect(again.body.error_code).to.equal('resource_not_found');
  });

  it('frees the external_id: a create or an upsert with it makes a new resource', async () => {
    const reused = await create(courses, 'Again', {}, '?external_id=course-1');
    const list = await s.api('GET', v1(s, `/collections/${courses}/resources/?external_id=course-1`));
    expect(list.body.results.map((x: { key: string }) => x.key)).to.deep.equal([reused.key]);
    await s.api('DELETE', v1(s, `/collections/${courses}/resources/${reused.key}/`));
    const upserted = await s.api('PUT', v1(s, `/collections/${courses}/resources/?external_id=course-1`), { data: { title: 'Third' } });
    expect(upserted.status).to.equal(201);
    expect(upserted.body.key).to.not.equal(reused.key);
  });

  it('deletes every descendant in a strict-reference hierarchy, and only those', async () => {
    const course = await create(courses, 'Course');
    const keep = await create(courses, 'Kept course');
    const m1 = await create(modules, 'M1', { resource_owner: course.key });
    const m2 = await create(modules, 'M2', { resource_owner: course.key });
    const kept = await create(modules, 'Kept module', { resource_owner: keep.key });
    const l1 = await create(lessons, 'L1', { resource_owner: m1.key });
    const l2 = await create(lessons, 'L2', { resource_owner: m2.key });
    const r = await s.api('DELETE', v1(s, `/folders/${courses}/resources/${course.key}/`));
    expect(r.status).to.equal(204);
    for (const [folder, key] of [[courses, course.key], [modules, m1.key], [modules, m2.key], [lessons, l1.key], [lessons, l2.key]] as const) {
      expect((await get(folder, key)).status, key).to.equal(404);
    }
    expect((await get(modules, kept.key)).status).to.equal(200);
    expect((await get(courses, keep.key)).status).to.equal(200);
    const audit = await s.api('GET', v1(s, `/events/?entity_type=resource&event_type=delete&entity_key=${l1.key}`));
    expect(audit.body.results[0].metadata.snapshot.resource_owner_key).to.equal(m1.key);
    const orphan = await s.api('POST', v1(s, `/collections/${modules}/resources/`), { data: { title: 'late' }, resource_owner: course.key });
    expect(orphan.status).to.equal(422);
    expect(orphan.body.error_code).to.equal('resource_owner_not_found');
  });

  it('answers 404 for an unknown resource or collection and for a resource of another collection', async () => {
    const other = await create(courses, 'Elsewhere');
    for (const path of [`/collections/${courses}/resources/nope/`, `/collections/nope/resources/${other.key}/`, `/collections/${modules}/resources/${other.key}/`]) {
      const r = await s.api('DELETE', v1(s, path));
      expect(r.status, path).to.equal(404);
    }
    expect((await get(courses, other.key)).status).to.equal(200);
  });
});
