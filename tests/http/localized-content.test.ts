import { expect } from 'chai';
import { v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

/** Localizable fields end to end: the published schema, the resource checks, and the default locale it requires. */
describe('HTTP: localizable content', function () {
  this.timeout(20_000);
  let s: TestService;
  let folder: string;

  const versions = () => v1(s, `/collections/${folder}/model/versions/`);
  const resources = () => v1(s, `/collections/${folder}/resources/`);

  before(async () => {
    s = await startTestService();
    const c = await s.api('POST', v1(s, '/collections/tree/'), { name: 'Pages', alias: 'pages' });
    folder = c.body.key;
    const v = await s.api('POST', versions(), {});
    const tree = `${versions()}${v.body.key}/schema/tree/`;
    expect((await s.api('POST', tree, { key: 'title', type: 'string', required: true, localizable: true })).status).to.equal(201);
    expect((await s.api('POST', tree, { key: 'views', type: 'integer' })).status).to.equal(201);
    const published = await s.api('POST', `${versions()}${v.body.key}/publish/`, {});
    expect(published.status).to.equal(200);
    const title = published.body.json_schema.properties.title;
    expect(title['x-localizable']).to.equal(true);
    expect(title.required).to.deep.equal(['en']);
  });
  after(() => s.stop());

  it('refuses a plain value for a localizable field on create, upsert and a draft revision', async () => {
    const created = await s.api('POST', resources(), { data: { title: 'Hello' } });
    expect(created.status).to.equal(422);
    expect(created.body.error_code).to.equal('localizable_data_should_be_object');

    const upserted = await s.api('PUT', `${resources()}?external_id=page-1`, { data: { title: ['Hello'] } });
    expect(upserted.status).to.equal(422);
    expect(upserted.body.error_code).to.equal('localizable_data_should_be_object');

    const list = await s.api('GET', resources());
    expect(list.body.count).to.equal(0);

    const ok = await s.api('POST', resources(), { data: { title: { en: 'Hello' } } });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
    const revisions = `${resources()}${ok.body.key}/revisions/`;
    for (const title of ['Hello', ['Hello'], 5]) {
      const revision = await s.api('POST', revisions, { data: { title } });
      expect(revision.status, JSON.stringify(title)).to.equal(422);
      expect(revision.body.error_code).to.equal('localizable_data_should_be_object');
      expect(revision.body.detail).to.deep.equal({ fields: ['/title'] });
    }
    expect((await s.api('GET', revisions)).body.count).to.equal(1);
  });

  it('accepts an object keyed by locale that holds the default locale, and refuses one without it', async () => {
    const ok = await s.api('POST', resources(), { data: { title: { en: 'Hello', de: 'Hallo' }, views: 1 } });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
    const data = await s.api('GET', `${resources()}${ok.body.key}/data/`);
    expect(data.body).to.deep.equal({ title: { en: 'Hello', de: 'Hallo' }, views: 1 });

    const missing = await s.api('POST', resources(), { data: { title: { de: 'Hallo' } } });
    expect(missing.status).to.equal(422);
    expect(missing.body.error_code).to.equal('validation_error');
  });

  it('requires the new default locale in versions published after the default moves', async () => {
    expect((await s.api('POST', v1(s, '/locales/'), { code: 'de', name: 'Deutsch' })).status).to.equal(201);
    expect((await s.api('PUT', v1(s, '/locales/de/'), { is_default: true })).status).to.equal(200);
    const list = await s.api('GET', `${versions()}?ordering=-created_at`);
    const current = list.body.results.find((v: { archived_at: string | null; published_at: string | null }) => v.published_at && !v.archived_at);
    const copy = await s.api('POST', `${versions()}?copy_from=${current.key}`, {});
    const published = await s.api('POST', `${versions()}${copy.body.key}/publish/`, {});
    expect(published.status).to.equal(200);
    expect(published.body.json_schema.properties.title.required).to.deep.equal(['de']);

    const english = await s.api('POST', resources(), { data: { title: { en: 'Hello' } } });
    expect(english.status).to.equal(422);
    const german = await s.api('POST', resources(), { data: { title: { de: 'Hallo' } } });
    expect(german.status).to.equal(201);
  });
});
