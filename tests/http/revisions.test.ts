import { expect } from 'chai';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

const REVISION_FIELDS = ['key', 'resource', 'schema_version', 'number', 'size', 'status', 'is_valid', 'created_at', 'published_at', 'unpublished_at', 'scheduled_publish_at'];

describe('revisions over HTTP', () => {
  let s: TestService;
  let folder: string;
  let resource: string;
  let first: string;
  let draft: string;
  const base = () => `/collections/${folder}/resources/${resource}/revisions/`;
  const rev = (path: string) => v1(s, `${base()}${path}`);

  before(async () => {
    s = await startTestService();
    folder = await collectionWithSchema(s, 'posts');
    const r = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'One' } });
    resource = r.body.key;
    first = r.body.current_revision;
  });
  after(async () => s?.stop());

  it('lists the revisions of a resource in the envelope with every field', async () => {
    const list = await s.api('GET', rev(''));
    expect(list.status).to.equal(200);
    expect(list.body).to.include({ count: 1, next: null, previous: null });
    const [one] = list.body.results;
    expect(one).to.have.all.keys(...REVISION_FIELDS);
    expect(one).to.include({ key: first, resource, number: 1, status: 'published', is_valid: true, unpublished_at: null, size: 15 });
    expect(one.schema_version).to.be.a('string');
    expect(one.published_at).to.equal(one.created_at);
    expect((await s.api('GET', v1(s, `/folders/${folder}/resources/${resource}/revisions/${first}/`))).body).to.deep.equal(one);
  });

  it('creates a draft revision (201) numbered after the last one; data/ returns its payload', async () => {
    const r = await s.api('POST', rev(''), { data: { title: 'Two', views: 2 } });
    expect(r.status).to.equal(201);
    draft = r.body.key;
    expect(r.body).to.include({ resource, number: 2, status: 'draft', is_valid: true, published_at: null });
    const data = await s.api('GET', rev(`${draft}/data/`));
    expect(data.status).to.equal(200);
    expect(data.body).to.deep.equal({ title: 'Two', views: 2 });
    const resourceNow = await s.api('GET', v1(s, `/collections/${folder}/resources/${resource}/`));
    expect(resourceNow.body.current_revision, 'a draft does not change the current revision').to.equal(first);
  });

  it('refuses invalid draft data unless validate_data=false, and payloads over 1 MB', async () => {
    const bad = await s.api('POST', rev(''), { data: { title: 5 } });
    expect(bad.status).to.equal(422);
    expect(bad.body.error_code).to.equal('validation_error');
    expect(bad.body.detail.errors[0]).to.include({ path: '/title' });
    const kept = await s.api('POST', rev(''), { data: { title: 5 }, validate_data: false });
    expect(kept.status).to.equal(201);
    expect(kept.body).to.include({ number: 3, is_valid: null });
    const big = await s.api('POST', rev(''), { data: { title: 'x'.repeat(1024 * 1024) }, validate_data: false });
    expect(big.body.error_code).to.equal('json_size_exceeded');
    for (const body of [{}, { data: [] }, { data: {}, extra: 1 }]) {
      expect((await s.api('POST', rev(''), body)).body.error_code, JSON.stringify(body)).to.equal('validation_error');
    }
    const check = await s.api('POST', rev(`${kept.body.key}/validate/`), {});
    expect(check.status).to.equal(200);
    expect(check.body.errors).to.deep.equal([{ path: '/title', message: 'must be string' }]);
    const refused = await s.api('POST', rev(`${kept.body.key}/publish/`), {});
    expect(refused.status).to.equal(422);
    expect(refused.body.error_code).to.equal('validation_error');
    expect(refused.body.detail.errors).to.have.length(1);
  });

  it('validates a revision against the current schema: 200 with no errors', async () => {
    const r = await s.api('POST', rev(`${draft}/validate/`));
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ errors: [] });
  });

  it('refuses validate/ with 422 validation_error while the collection has no published schema (decision 0016), writing nothing', async () => {
    const bare = await s.api('POST', v1(s, '/collections/tree/'), { name: 'Bare', alias: 'bare' });
    const resources = v1(s, `/collections/${bare.body.key}/resources/`);
    const created = await s.api('POST', resources, { data: { anything: 1 }, mode: 'draft', validate_data: false });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const revisions = `${resources}${created.body.key}/revisions/`;
    const [only] = (await s.api('GET', revisions)).body.results;
    const r = await s.api('POST', `${revisions}${only.key}/validate/`, {});
    expect(r.status).to.equal(422);
    expect(r.body).to.deep.equal({ message: r.body.message, error_code: 'validation_error', detail: { data: ['no published schema'] } });
    const events = await s.api('GET', v1(s, `/events/?resource_key=${created.body.key}`));
    expect(events.body.results.map((e: { entity_type: string; event_type: string }) => `${e.entity_type}:${e.event_type}`)).to.have.members(['resource:create', 'revision:create']);
  });

  it('publishes a draft (200): it becomes current, the previous one unpublished, the resource audited as updated', async () => {
    const r = await s.api('POST', rev(`${draft}/publish/`), {});
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ key: draft, status: 'published', unpublished_at: null });
    expect(r.body.published_at).to.be.a('string');
    const previous = await s.api('GET', rev(`${first}/`));
    expect(previous.body.status).to.equal('unpublished');
    expect(previous.body.unpublished_at).to.be.a('string');
    const res = await s.api('GET', v1(s, `/collections/${folder}/resources/${resource}/`));
    expect(res.body.current_revision).to.equal(draft);
    expect(res.headers.get('etag')).to.equal(`"${draft}"`);
    expect((await s.api('GET', v1(s, `/collections/${folder}/resources/${resource}/data/`))).body).to.deep.equal({ title: 'Two', views: 2 });
    const audit = await s.api('GET', v1(s, `/events/?entity_type=resource&event_type=update&entity_key=${resource}`));
    expect(audit.body.count).to.equal(1);
    expect(audit.body.results[0].metadata).to.deep.equal({ folder_key: folder });
    const again = await s.api('POST', rev(`${draft}/publish/`));
    expect(again.status, 'publishing the current revision changes nothing').to.equal(200);
    expect((await s.api('GET', v1(s, `/events/?entity_type=resource&event_type=update&entity_key=${resource}`))).body.count).to.equal(1);
  });

  it('republishes an unpublished revision', async () => {
    const r = await s.api('POST', rev(`${first}/publish/`));
    expect(r.body.status).to.equal('published');
    expect((await s.api('GET', rev(`${draft}/`))).body.status).to.equal('unpublished');
    await s.api('POST', rev(`${draft}/publish/`));
  });

  it('deletes a revision other than the current one (204), audited with its snapshot', async () => {
    const r = await s.api('DELETE', rev(`${first}/`));
    expect(r.status).to.equal(204);
    expect((await s.api('GET', rev(`${first}/`))).status).to.equal(404);
    const audit = await s.api('GET', v1(s, `/events/?entity_type=revision&event_type=delete&entity_key=${first}`));
    expect(audit.body.results[0].metadata).to.deep.equal({
      folder_key: folder,
      resource_key: resource,
      snapshot: { number: 1, size: 15, status: 'unpublished', is_valid: true, version_key: audit.body.results[0].metadata.snapshot.version_key },
    });
    expect(audit.body.results[0].metadata.snapshot.version_key).to.be.a('string');
    const created = await s.api('GET', v1(s, `/events/?entity_type=revision&event_type=create&resource_key=${resource}`));
    expect(created.body.count).to.equal(3);
    expect(created.body.results[0].metadata).to.deep.equal({ folder_key: folder, resource_key: resource });
  });

  it('refuses to delete the current revision with 422 validation_error', async () => {
    const r = await s.api('DELETE', rev(`${draft}/`));
    expect(r.status).to.equal(422);
    expect(r.body.error_code).to.equal('validation_error');
    expect((await s.api('GET', rev(`${draft}/`))).status).to.equal(200);
  });

  it('lists with ordering, status, limit and offset; refuses bad query parameters with 422', async () => {
    const desc = await s.api('GET', rev('?ordering=-number'));
    expect(desc.body.results.map((r: { number: number }) => r.number)).to.deep.equal([3, 2]);
    const paged = await s.api('GET', rev('?limit=1'));
    expect(paged.body.results.map((r: { number: number }) => r.number)).to.deep.equal([2]);
    const next = await s.get(paged.body.next, { authorization: `Bearer ${s.token}` });
    expect(next.body.results.map((r: { number: number }) => r.number)).to.deep.equal([3]);
    expect((await s.api('GET', rev('?status=draft'))).body.count).to.equal(1);
    for (const query of ['?ordering=size', '?status=gone', '?limit=x', '?offset=-1']) {
      const r = await s.api('GET', rev(query));
      expect(r.status, query).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
    }
  });

  it('answers 404 revision_not_found, resource_not_found and collection_not_found', async () => {
    for (const [method, path] of [['GET', 'nope/'], ['GET', 'nope/data/'], ['POST', 'nope/publish/'], ['POST', 'nope/validate/'], ['DELETE', 'nope/']] as const) {
      const r = await s.api(method, rev(path));
      expect(r.status, `${method} ${path}`).to.equal(404);
      expect(r.body.error_code).to.equal('revision_not_found');
    }
    for (const [method, path] of [['GET', ''], ['POST', ''], ['POST', `${draft}/publish/`], ['DELETE', `${draft}/`]] as const) {
      const r = await s.api(method, v1(s, `/collections/${folder}/resources/nope/revisions/${path}`), path === '' && method === 'POST' ? { data: { title: 'x' } } : undefined);
      expect(r.body.error_code, `${method} ${path}`).to.equal('resource_not_found');
    }
    const collection = await s.api('GET', v1(s, `/collections/nope/resources/${resource}/revisions/`));
    expect(collection.body.error_code).to.equal('collection_not_found');
  });
});
