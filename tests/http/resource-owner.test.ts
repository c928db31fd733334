import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

describe('resource_owner in strict-reference collections over HTTP', () => {
  let s: TestService;
  let courses: string;
  let modules: string;
  let course: string;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;

  const collection = async (alias: string, parent: string | null, strict: boolean): Promise<string> => {
    const c = await s.api('POST', v1('/collections/tree/'), { name: alias, alias, parent, strict_reference: strict });
    const v = await s.api('POST', v1(`/collections/${c.body.key}/model/versions/`), {});
    await s.api('POST', v1(`/collections/${c.body.key}/model/versions/${v.body.key}/schema/tree/`), { key: 'title', type: 'string' });
    await s.api('POST', v1(`/collections/${c.body.key}/model/versions/${v.body.key}/publish/`), {});
    return c.body.key;
  };
  const create = (folder: string, body: Record<string, unknown>) => s.api('POST', v1(`/collections/${folder}/resources/`), { data: { title: 't' }, ...body });

  before(async () => {
    s = await startTestService();
    courses = await collection('courses', null, false);
    modules = await collection('modules', courses, true);
    course = (await create(courses, {})).body.key;
  });
  after(async () => s?.stop());

  it('refuses a child without resource_owner with 422 resource_owner_required', async () => {
    const r = await create(modules, {});
    expect(r.status).to.equal(422);
    expect(r.body.error_code).to.equal('resource_owner_required');
  });

  it('refuses an unknown owner, or one from another collection, with 422 resource_owner_not_found', async () => {
    expect((await create(modules, { resource_owner: 'nope' })).body.error_code).to.equal('resource_owner_not_found');
    const module = await create(modules, { resource_owner: course });
    const wrong = await create(modules, { resource_owner: module.body.key });
    expect(wrong.status).to.equal(422);
    expect(wrong.body.error_code).to.equal('resource_owner_not_found');
  });

  it('creates the child with its owner and lists it by owner', async () => {
    const r = await create(modules, { resource_owner: course });
    expect(r.status).to.equal(201);
    expect(r.body.resource_owner).to.equal(course);
    const list = await s.api('GET', v1(`/collections/${modules}/resources/?resource_owner=${course}`));
    expect(list.body.results.every((x: { resource_owner: string }) => x.resource_owner === course)).to.equal(true);
    expect(list.body.count).to.equal(2);
  });

  it('refuses resource_owner in a collection that is not strict-reference', async () => {
    const r = await create(courses, { resource_owner: course });
    expect(r.status).to.equal(422);
    expect(r.body.error_code).to.equal('validation_error');
  });
});

describe('resource metadata update over HTTP', () => {
  let s: TestService;
  let folder: string;
  let key: string;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;

  before(async () => {
    s = await startTestService();
    const c = await s.api('POST', v1('/collections/tree/'), { name: 'Notes', alias: 'notes' });
    folder = c.body.key;
    key = (await s.api('POST', v1(`/collections/${folder}/resources/`), { data: {}, mode: 'draft', validate_data: false, name: 'First' })).body.key;
  });
  after(async () => s?.stop());

  it('changes the name, keeps it when left out, removes it with null', async () => {
    const path = v1(`/collections/${folder}/resources/${key}/`);
    const renamed = await s.api('PUT', path, { name: 'Second' });
    expect(renamed.status).to.equal(200);
    expect(renamed.body).to.include({ key, name: 'Second', folder });
    expect((await s.api('PUT', path, {})).body.name).to.equal('Second');
    expect((await s.api('PUT', path, { name: null })).body.name).to.equal(null);
    expect((await s.api('GET', path)).body.name).to.equal(null);
    const events = await s.api('GET', v1(`/events/?entity_type=resource&event_type=update&resource_key=${key}`));
    expect(events.body.count).to.equal(2);
    expect(events.body.results[0].metadata).to.deep.equal({ folder_key: folder });
  });

  it('refuses a bad name, other fields, and unknown resources', async () => {
    const path = v1(`/collections/${folder}/resources/${key}/`);
    for (const body of [{ name: '' }, { name: 'n'.repeat(256) }, { name: 5 }, { data: {} }]) {
      const r = await s.api('PUT', path, body);
      expect(r.status, JSON.stringify(body)).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
    }
    const missing = await s.api('PUT', v1(`/collections/${folder}/resources/nope/`), { name: 'x' });
    expect(missing.status).to.equal(404);
    expect(missing.body.error_code).to.equal('resource_not_found');
    expect((await s.api('PUT', v1(`/collections/nope/resources/${key}/`), { name: 'x' })).body.error_code).to.equal('collection_not_found');
  });
});
