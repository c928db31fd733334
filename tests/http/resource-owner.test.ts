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
