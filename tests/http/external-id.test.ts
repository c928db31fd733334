import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

describe('external_id on resource create over HTTP', () => {
  let s: TestService;
  let books: string;
  let films: string;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;

  const collection = async (alias: string): Promise<string> => {
    const c = await s.api('POST', v1('/collections/tree/'), { name: alias, alias });
    const v = await s.api('POST', v1(`/collections/${c.body.key}/model/versions/`), {});
    await s.api('POST', v1(`/collections/${c.body.key}/model/versions/${v.body.key}/schema/tree/`), { key: 'title', type: 'string', required: true });
    await s.api('POST', v1(`/collections/${c.body.key}/model/versions/${v.body.key}/publish/`), {});
    return c.body.key;
  };

  before(async () => {
    s = await startTestService();
    books = await collection('books');
    films = await collection('films');
  });
  after(async () => s?.stop());

  it('stores the external_id and finds the resource by it', async () => {
    const r = await s.api('POST', v1(`/collections/${books}/resources/?external_id=isbn/978-0.441`), { data: { title: 'Dune' } });
    expect(r.status).to.equal(201);
    expect(r.body.external_id).to.equal('isbn/978-0.441');
    const found = await s.api('GET', v1(`/collections/${books}/resources/?external_id=isbn/978-0.441`));
    expect(found.body.results.map((x: { key: string }) => x.key)).to.deep.equal([r.body.key]);
    expect((await s.api('GET', v1(`/collections/${books}/resources/?external_id=nope`))).body.results).to.deep.equal([]);
  });

  it('refuses an external_id used in the collection with 409 external_id_conflict, and allows it in another', async () => {
    const again = await s.api('POST', v1(`/collections/${books}/resources/?external_id=isbn/978-0.441`), { data: { title: 'Other' } });
    expect(again.status).to.equal(409);
    expect(again.body.error_code).to.equal('external_id_conflict');
    const elsewhere = await s.api('POST', v1(`/collections/${films}/resources/?external_id=isbn/978-0.441`), { data: { title: 'Dune' } });
    expect(elsewhere.status).to.equal(201);
  });

  it('claims nothing when the create itself is refused', async () => {
    const invalid = await s.api('POST', v1(`/collections/${books}/resources/?external_id=later`), { data: { title: 5 } });
    expect(invalid.status).to.equal(422);
    const valid = await s.api('POST', v1(`/collections/${books}/resources/?external_id=later`), { data: { title: 'Now' } });
    expect(valid.status).to.equal(201);
  });

  it('rejects a malformed external_id with 422 validation_error naming it, and creates nothing', async () => {
    // A create reports a bad query parameter as validation_error (specification, Errors: "invalid
    // request data or invalid query parameters"); data_validation_error is the upsert's code.
    const before = (await s.api('GET', v1(`/collections/${books}/resources/`))).body.count;
    for (const value of ['a b', 'ä', 'a'.repeat(256), 'semi;colon', '']) {
      const r = await s.api('POST', v1(`/collections/${books}/resources/?external_id=${encodeURIComponent(value)}`), { data: { title: 'X' } });
      expect(r.status, value.slice(0, 20)).to.equal(422);
      expect(r.body.error_code, value.slice(0, 20)).to.equal('validation_error');
      expect(r.body.detail, value.slice(0, 20)).to.have.property('external_id');
    }
    expect((await s.api('GET', v1(`/collections/${books}/resources/`))).body.count).to.equal(before);
    const longest = await s.api('POST', v1(`/collections/${books}/resources/?external_id=${'a'.repeat(255)}`), { data: { title: 'X' } });
    expect(longest.status).to.equal(201);
  });

  it('lets exactly one of concurrent creates with one external_id win', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => s.api('POST', v1(`/collections/${books}/resources/?external_id=race`), { data: { title: `T${i}` } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).to.deep.equal([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const list = await s.api('GET', v1(`/collections/${books}/resources/?external_id=race`));
    expect(list.body.count).to.equal(1);
  });
});
