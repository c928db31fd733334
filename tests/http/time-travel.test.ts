import { expect } from 'chai';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

describe('time travel: a resource, its data and a resource list as_of a time, a position or a stream revision', () => {
  let s: TestService;
  let folder: string;
  let other: string;
  let a: string;
  let b: string;
  let firstRevision: string;
  let afterCreate: string;
  let afterPublish: string;

  /** The position of the newest event of a stream, from the replay. */
  async function lastPosition(stream: string): Promise<string> {
    const r = await fetch(`${s.base}${v1(s, `/events/stream/?stream=${stream}`)}`, { headers: { authorization: `Bearer ${s.token}` } });
    const lines = (await r.text()).split('\n').filter(Boolean);
    return JSON.parse(lines[lines.length - 1]!).position;
  }
  const res = (collection: string, key: string, suffix = '') => v1(s, `/collections/${collection}/resources/${key}/${suffix}`);

  before(async () => {
    s = await startTestService();
    folder = await collectionWithSchema(s, 'articles');
    other = await collectionWithSchema(s, 'others');
    const created = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'One' } });
    a = created.body.key;
    firstRevision = created.body.current_revision;
    afterCreate = await lastPosition(`resource-${a}`);
    const draft = await s.api('POST', res(folder, a, 'revisions/'), { data: { title: 'Two', views: 2 } });
    expect((await s.api('POST', res(folder, a, `revisions/${draft.body.key}/publish/`), {})).status).to.equal(200);
    afterPublish = await lastPosition(`resource-${a}`);
    b = (await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'Bee' } })).body.key;
    expect((await s.api('DELETE', res(folder, a))).status).to.equal(204);
  });
  after(async () => s?.stop());

  it('shows a deleted resource and its published data as they were at a position', async () => {
    expect((await s.api('GET', res(folder, a))).status).to.equal(404);
    const then = await s.api('GET', `${res(folder, a)}?as_of=position:${afterCreate}`);
    expect(then.status).to.equal(200);
    expect(then.body).to.include({ key: a, folder, current_revision: firstRevision, content_type: 'document' });
    expect(then.body).to.have.all.keys('key', 'name', 'folder', 'content_type', 'external_id', 'created_at', 'resource_owner', 'current_revision', 'vectors_size');
    expect((await s.api('GET', `${res(folder, a, 'data/')}?as_of=position:${afterCreate}`)).body).to.deep.equal({ title: 'One' });
    expect((await s.api('GET', `${res(folder, a, 'data/')}?as_of=position:${Number(afterPublish)}`)).body).to.deep.equal({ title: 'Two', views: 2 });
  });

  it('folds a resource stream up to a stream revision: at revision 0 it exists with no published data', async () => {
    const created = await s.api('GET', `${res(folder, a)}?as_of=revision:0`);
    expect(created.body).to.include({ key: a, current_revision: null });
    expect((await s.api('GET', `${res(folder, a, 'data/')}?as_of=revision:0`)).status).to.equal(204);
    expect((await s.api('GET', `${res(folder, a, 'data/')}?as_of=revision:1`)).body).to.deep.equal({ title: 'One' });
  });

  it('answers what the live read models answer when as_of is now, and 404 before a resource existed', async () => {
    const live = await s.api('GET', res(folder, b));
    const future = await s.api('GET', `${res(folder, b)}?as_of=2999-01-01T00:00:00Z`);
    expect(future.body).to.deep.equal(live.body);
    expect((await s.api('GET', `${res(folder, b, 'data/')}?as_of=2999-01-01T00:00:00Z`)).body).to.deep.equal((await s.api('GET', res(folder, b, 'data/'))).body);
    const before = await s.api('GET', `${res(folder, b)}?as_of=2000-01-01T00:00:00Z`);
    expect(before.status).to.equal(404);
    expect(before.body.error_code).to.equal('resource_not_found');
    expect((await s.api('GET', `${res(other, b)}?as_of=2999-01-01T00:00:00Z`)).status).to.equal(404);
  });

  it("lists a collection's resources as of a point, and as the live list now", async () => {
    const then = await s.api('GET', v1(s, `/collections/${folder}/resources/?as_of=position:${afterPublish}`));
    expect(then.status).to.equal(200);
    expect(then.body).to.include({ count: 1, next: null, previous: null });
    expect(then.body.results[0]).to.include({ key: a });
    const now = await s.api('GET', v1(s, `/collections/${folder}/resources/?as_of=2999-01-01T00:00:00Z`));
    const live = await s.api('GET', v1(s, `/collections/${folder}/resources/`));
    expect(now.body.results).to.deep.equal(live.body.results);
    expect((await s.api('GET', v1(s, `/collections/${folder}/resources/?as_of=position:${afterPublish}&status=draft`))).body.count).to.equal(0);
    const paged = await s.api('GET', v1(s, `/collections/${other}/resources/?as_of=2999-01-01T00:00:00Z&limit=1`));
    expect(paged.body).to.include({ count: 0 });
  });

  it('refuses a malformed as_of, revision: on a list and filters the log cannot answer with 422 validation_error', async () => {
    for (const path of [
      `${res(folder, b)}?as_of=yesterday`,
      `${res(folder, b)}?as_of=position:abc`,
      `${res(folder, b)}?as_of=position:`,
      `${res(folder, b)}?as_of=revision:-1`,
      `${res(folder, b, 'data/')}?as_of=2026-13-45`,
      `${res(folder, b)}?as_of=1&as_of=2`,
      v1(s, `/collections/${folder}/resources/?as_of=revision:1`),
      v1(s, `/collections/${folder}/resources/?as_of=2999-01-01&external_id=x`),
      v1(s, `/collections/${folder}/resources/?as_of=2999-01-01&limit=abc`),
    ]) {
      const r = await s.api('GET', path);
      expect(r.status, path).to.equal(422);
      expect(r.body).to.include({ error_code: 'validation_error' });
    }
  });
});
