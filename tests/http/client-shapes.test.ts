import { expect } from 'chai';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

/** Shapes the product's own client library sends or expects (docs/decisions/0114). */
describe('HTTP: shapes the product client relies on', function () {
  this.timeout(30_000);
  let s: TestService;
  let books: string;

  before(async () => {
    s = await startTestService();
    books = await collectionWithSchema(s, 'books');
  });
  after(() => s.stop());

  const count = async (): Promise<number> => (await s.api('GET', v1(s, `/collections/${books}/resources/`))).body.count as number;

  describe('external_id in the body of a resource create', () => {
    it('stores it, finds the resource by it, and refuses it again in the collection with 409 external_id_conflict', async () => {
      const r = await s.api('POST', v1(s, `/collections/${books}/resources/`), { data: { title: 'Dune' }, external_id: 'isbn-1' });
      expect(r.status).to.equal(201);
      expect(r.body.external_id).to.equal('isbn-1');
      const found = await s.api('GET', v1(s, `/collections/${books}/resources/?external_id=isbn-1`));
      expect(found.body.results.map((x: { key: string }) => x.key)).to.deep.equal([r.body.key]);
      const again = await s.api('POST', v1(s, `/collections/${books}/resources/`), { data: { title: 'Other' }, external_id: 'isbn-1' });
      expect(again.status).to.equal(409);
      expect(again.body.error_code).to.equal('external_id_conflict');
      const viaQuery = await s.api('POST', v1(s, `/collections/${books}/resources/?external_id=isbn-1`), { data: { title: 'Other' } });
      expect(viaQuery.status).to.equal(409);
    });

    it('accepts null as no external_id, and the same value in the query and the body', async () => {
      const none = await s.api('POST', v1(s, `/collections/${books}/resources/`), { data: { title: 'No id' }, external_id: null });
      expect(none.status).to.equal(201);
      expect(none.body.external_id).to.equal(null);
      const both = await s.api('POST', v1(s, `/collections/${books}/resources/?external_id=same`), { data: { title: 'Both' }, external_id: 'same' });
      expect(both.status).to.equal(201);
      expect(both.body.external_id).to.equal('same');
    });

    it('refuses a malformed one, or two different ones, with 422 validation_error naming external_id, and creates nothing', async () => {
      const before = await count();
      for (const external_id of ['a b', '', 'x'.repeat(256), 5]) {
        const r = await s.api('POST', v1(s, `/collections/${books}/resources/`), { data: { title: 'X' }, external_id });
        expect(r.status, String(external_id).slice(0, 10)).to.equal(422);
        expect(r.body.error_code).to.equal('validation_error');
        expect(r.body.detail).to.have.property('external_id');
      }
      const twice = await s.api('POST', v1(s, `/collections/${books}/resources/?external_id=one`), { data: { title: 'X' }, external_id: 'two' });
      expect(twice.status).to.equal(422);
      expect(twice.body.detail).to.have.property('external_id');
      expect(await count()).to.equal(before);
      const free = await s.api('POST', v1(s, `/collections/${books}/resources/?external_id=one`), { data: { title: 'X' } });
      expect(free.status, 'the refused create claimed nothing').to.equal(201);
    });
  });

  describe('collection embedding settings', () => {
    it('takes embedding_model and embedding_dimension on create and shows them on every read (null when not given)', async () => {
      const r = await s.api('POST', v1(s, '/collections/tree/'), { name: 'Notes', alias: 'notes', embedding_model: 'text-embedding-3-small', embedding_dimension: 1536 });
      expect(r.status).to.equal(201);
      expect(r.body).to.include({ embedding_model: 'text-embedding-3-small', embedding_dimension: 1536 });
      const got = await s.api('GET', v1(s, `/collections/tree/collection/?key=${r.body.key}`));
      expect(got.body).to.include({ embedding_model: 'text-embedding-3-small', embedding_dimension: 1536 });
      const plain = await s.api('GET', v1(s, `/collections/tree/collection/?key=${books}`));
      expect(plain.body).to.include({ embedding_model: null, embedding_dimension: null });
    });

    it('refuses to change them with PUT (422 validation_error naming the field) and keeps them', async () => {
      const r = await s.api('POST', v1(s, '/collections/tree/'), { name: 'Fixed', alias: 'fixed', embedding_model: 'm1' });
      const put = await s.api('PUT', v1(s, `/collections/tree/collection/?key=${r.body.key}`), { embedding_model: 'm2' });
      expect(put.status).to.equal(422);
      expect(put.body.error_code).to.equal('validation_error');
      expect(put.body.detail).to.have.property('embedding_model');
      const renamed = await s.api('PUT', v1(s, `/collections/tree/collection/?key=${r.body.key}`), { name: 'Renamed' });
      expect(renamed.status).to.equal(200);
      expect(renamed.body).to.include({ name: 'Renamed', embedding_model: 'm1', embedding_dimension: null });
    });

    it('refuses a model that is not a short string and a dimension that is not a positive integer with 422', async () => {
      for (const body of [{ embedding_model: '' }, { embedding_model: 5 }, { embedding_dimension: 0 }, { embedding_dimension: 1.5 }, { embedding_dimension: '768' }]) {
        const r = await s.api('POST', v1(s, '/collections/tree/'), { name: 'Bad', alias: 'bad', ...body });
        expect(r.status, JSON.stringify(body)).to.equal(422);
        expect(Object.keys(r.body.detail)).to.deep.equal(Object.keys(body));
      }
    });
  });

  describe('PUT of a revision', () => {
    let resource: string;
    let published: string;
    const revisions = () => v1(s, `/collections/${books}/resources/${resource}/revisions/`);

    before(async () => {
      const r = await s.api('POST', v1(s, `/collections/${books}/resources/`), { data: { title: 'First' } });
      resource = r.body.key;
      published = r.body.current_revision;
    });

    it('replaces the data of a draft (200 with the revision), which data/, publish and the audit log then use', async () => {
      const draft = await s.api('POST', revisions(), { data: { title: 'Draft' } });
      const put = await s.api('PUT', `${revisions()}${draft.body.key}/`, { data: { title: 'Edited', views: 7 } });
      expect(put.status).to.equal(200);
      expect(put.body).to.include({ key: draft.body.key, number: draft.body.number, status: 'draft', is_valid: true });
      expect(put.body.size).to.equal(Buffer.byteLength(JSON.stringify({ title: 'Edited', views: 7 })));
      expect((await s.api('GET', `${revisions()}${draft.body.key}/data/`)).body).to.deep.equal({ title: 'Edited', views: 7 });
      const publish = await s.api('POST', `${revisions()}${draft.body.key}/publish/`, {});
      expect(publish.status).to.equal(200);
      expect((await s.api('GET', v1(s, `/collections/${books}/resources/${resource}/data/`))).body).to.deep.equal({ title: 'Edited', views: 7 });
      const audit = await s.api('GET', v1(s, `/events/?entity_type=revision&event_type=update&entity_key=${draft.body.key}`));
      expect(audit.body.results).to.have.lengthOf(1);
      expect(audit.body.results[0].metadata).to.deep.equal({ folder_key: books, resource_key: resource });
    });

    it('keeps invalid data only with validate_data=false (is_valid null), and refuses it otherwise with 422, changing nothing', async () => {
      const draft = await s.api('POST', revisions(), { data: { title: 'Valid' } });
      const bad = await s.api('PUT', `${revisions()}${draft.body.key}/`, { data: { title: 5 } });
      expect(bad.status).to.equal(422);
      expect(bad.body.error_code).to.equal('validation_error');
      expect((await s.api('GET', `${revisions()}${draft.body.key}/data/`)).body).to.deep.equal({ title: 'Valid' });
      const kept = await s.api('PUT', `${revisions()}${draft.body.key}/`, { data: { title: 5 }, validate_data: false });
      expect(kept.status).to.equal(200);
      expect(kept.body.is_valid).to.equal(null);
      for (const body of [{}, { data: [] }, { data: {}, extra: 1 }]) {
        expect((await s.api('PUT', `${revisions()}${draft.body.key}/`, body)).status, JSON.stringify(body)).to.equal(422);
      }
    });

    it('refuses to change a published revision (422 naming revision), and answers 404 for unknown revisions and resources', async () => {
      const r = await s.api('PUT', `${revisions()}${published}/`, { data: { title: 'Rewrite history' } });
      expect(r.status).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
      expect(r.body.detail).to.have.property('revision');
      expect((await s.api('PUT', `${revisions()}nope/`, { data: { title: 'x' } })).body.error_code).to.equal('revision_not_found');
      const unknown = await s.api('PUT', v1(s, `/collections/${books}/resources/nope/revisions/${published}/`), { data: { title: 'x' } });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error_code).to.equal('resource_not_found');
    });
  });

  describe('the locales list', () => {
    it('is a bare array of locale objects', async () => {
      const r = await s.api('GET', v1(s, '/locales/'));
      expect(r.status).to.equal(200);
      expect(r.body).to.be.an('array');
      expect(r.body[0]).to.have.all.keys('name', 'code', 'environment', 'is_default', 'created_at');
    });
  });
});
