import { expect } from 'chai';
import { collectionWithSchema, eventually, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

describe('resource data/ over HTTP', () => {
  let s: TestService;
  let folder: string;
  const data = (key: string) => s.api('GET', v1(s, `/collections/${folder}/resources/${key}/data/`));

  before(async () => {
    s = await startTestService();
    folder = await collectionWithSchema(s, 'notes');
  });
  after(async () => s?.stop());

  it('answers 200 with the current published payload and 204 without a published revision', async () => {
    const published = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'Live', views: 1 } });
    const r = await data(published.body.key);
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ title: 'Live', views: 1 });
    const draft = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'Draft' }, mode: 'draft' });
    const none = await data(draft.body.key);
    expect(none.status).to.equal(204);
    expect(none.body).to.equal(null);
    expect((await data('nope')).body.error_code).to.equal('resource_not_found');
  });

  it('answers 202 while the current revision is not yet in the read model, then 200', async () => {
    const revisions = s.service.projections.runner('revisions');
    expect(revisions).to.not.equal(undefined);
    revisions?.pause();
    try {
      const r = await s.api('POST', v1(s, `/collections/${folder}/resources/?wait=false`), { data: { title: 'Processing' } });
      expect(r.status).to.equal(202);
      const visible = await eventually(() => s.api('GET', v1(s, `/collections/${folder}/resources/${r.body.key}/`)), (x) => x.status === 200);
      expect(visible.body.current_revision).to.equal(r.body.current_revision);
      const processing = await data(r.body.key);
      expect(processing.status).to.equal(202);
      revisions?.resume();
      const done = await eventually(() => data(r.body.key), (x) => x.status === 200);
      expect(done.body).to.deep.equal({ title: 'Processing' });
    } finally {
      revisions?.resume();
    }
  });
});
