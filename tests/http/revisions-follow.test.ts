import { expect } from 'chai';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

describe('revision trimming and the delivery index over HTTP', () => {
  let s: TestService;

  before(async () => {
    s = await startTestService();
  });
  after(async () => s?.stop());

  it('auto_remove_revisions keeps the newest N revisions, never the current one, audited as revision:delete', async () => {
    const folder = await collectionWithSchema(s, 'trimmed', { body: { auto_remove_revisions: 5 } });
    const first = await s.api('PUT', v1(s, `/collections/${folder}/resources/?external_id=t1`), { data: { title: 'v1' } });
    const key = first.body.key as string;
    for (let i = 2; i <= 7; i++) {
      const r = await s.api('PUT', v1(s, `/collections/${folder}/resources/?external_id=t1`), { data: { title: `v${i}` }, mode: 'draft' });
      expect(r.status).to.equal(200);
    }
    const revisions = (await s.api('GET', v1(s, `/collections/${folder}/resources/${key}/revisions/`))).body.results as { key: string; number: number }[];
    expect(revisions.map((r) => r.number), 'the current revision 1 stays, 2 and 3 go').to.deep.equal([1, 4, 5, 6, 7]);
    const deleted = await s.api('GET', v1(s, `/events/?entity_type=revision&event_type=delete&resource_key=${key}&ordering=timestamp`));
    expect(deleted.body.results.map((e: { metadata: { snapshot: { number: number } } }) => e.metadata.snapshot.number)).to.deep.equal([2, 3]);
    const draft = await s.api('POST', v1(s, `/collections/${folder}/resources/${key}/revisions/`), { data: { title: 'v8' } });
    expect(draft.body.number).to.equal(8);
    const after = (await s.api('GET', v1(s, `/collections/${folder}/resources/${key}/revisions/`))).body.results as { number: number }[];
    expect(after.map((r) => r.number)).to.deep.equal([1, 5, 6, 7, 8]);
    const untrimmed = await collectionWithSchema(s, 'untrimmed');
    for (let i = 1; i <= 7; i++) await s.api('PUT', v1(s, `/collections/${untrimmed}/resources/?external_id=u1`), { data: { title: `v${i}` } });
    const all = await s.api('GET', v1(s, `/collections/${untrimmed}/resources/?external_id=u1`));
    expect((await s.api('GET', v1(s, `/collections/${untrimmed}/resources/${all.body.results[0].key}/revisions/`))).body.count).to.equal(7);
  });

  it('serves the published revision through delivery, follows publishes and drops deleted resources', async () => {
    const folder = await collectionWithSchema(s, 'pages');
    const api = await s.api('POST', v1(s, '/api/'), { name: 'Site', prefix: 'site' });
    await s.api('POST', v1(s, `/api/${api.body.key}/collections/`), { folder, allowed_methods: ['get_many', 'get_one'] });
    const one = (key: string) => s.get(`${s.delivery}/site/pages/${key}/`);
    const r = await s.api('PUT', v1(s, `/collections/${folder}/resources/?external_id=home`), { data: { title: 'Home v1' } });
    const key = r.body.key as string;
    expect((await one(key)).body.data).to.deep.equal({ title: 'Home v1' });
    await s.api('PUT', v1(s, `/collections/${folder}/resources/?external_id=home`), { data: { title: 'Home v2' } });
    expect((await one(key)).body.data, 'an upsert publishes').to.deep.equal({ title: 'Home v2' });
    const draft = await s.api('POST', v1(s, `/collections/${folder}/resources/${key}/revisions/`), { data: { title: 'Home v3' } });
    expect((await one(key)).body.data, 'a draft is not delivered').to.deep.equal({ title: 'Home v2' });
    await s.api('POST', v1(s, `/collections/${folder}/resources/${key}/revisions/${draft.body.key}/publish/`));
    expect((await one(key)).body.data).to.deep.equal({ title: 'Home v3' });
    await s.api('POST', v1(s, `/collections/${folder}/resources/${key}/revisions/${r.body.current_revision}/publish/`));
    expect((await one(key)).body.data, 'republishing the first revision unpublishes the third').to.deep.equal({ title: 'Home v1' });
    const onlyDraft = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'Later' }, mode: 'draft' });
    expect((await one(onlyDraft.body.key)).status).to.equal(404);
    const revision = (await s.api('GET', v1(s, `/collections/${folder}/resources/${onlyDraft.body.key}/revisions/`))).body.results[0].key;
    await s.api('POST', v1(s, `/collections/${folder}/resources/${onlyDraft.body.key}/revisions/${revision}/publish/`));
    expect((await one(onlyDraft.body.key)).body.data, 'a draft resource published later').to.deep.equal({ title: 'Later' });
    expect((await s.api('DELETE', v1(s, `/collections/${folder}/resources/${key}/`))).status).to.equal(204);
    expect((await one(key)).status).to.equal(404);
    const listed = await s.get(`${s.delivery}/site/pages/`);
    expect(listed.body.results.map((x: { _sys: { key: string } }) => x._sys.key)).to.deep.equal([onlyDraft.body.key]);
  });
});
