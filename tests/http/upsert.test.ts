import { expect } from 'chai';
import { collectionWithSchema, eventually, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

describe('resource upsert (PUT ?external_id=) over HTTP', () => {
  let s: TestService;
  let books: string;
  const put = (externalId: string, body: unknown, headers: Record<string, string> = {}, query = '') =>
    s.api('PUT', v1(s, `/collections/${books}/resources/?external_id=${externalId}${query}`), body, headers);
  const revisionsOf = async (key: string) =>
    (await s.api('GET', v1(s, `/collections/${books}/resources/${key}/revisions/`))).body.results as { key: string; number: number; status: string }[];

  before(async () => {
    s = await startTestService();
    books = await collectionWithSchema(s, 'books');
  });
  after(async () => s?.stop());

  it('creates the resource (201), then adds a published revision (200) and unpublishes the previous one', async () => {
    const created = await put('isbn-1', { data: { title: 'Dune' }, name: 'Dune' });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ external_id: 'isbn-1', name: 'Dune', folder: books });
    expect(created.headers.get('etag')).to.equal(`"${created.body.current_revision}"`);
    const updated = await put('isbn-1', { data: { title: 'Dune (2nd ed.)' } });
    expect(updated.status).to.equal(200);
    expect(updated.body.key).to.equal(created.body.key);
    expect(updated.body.name, 'name kept when left out').to.equal('Dune');
    expect(updated.body.current_revision).to.not.equal(created.body.current_revision);
    const revisions = await revisionsOf(created.body.key);
    expect(revisions.map((r) => [r.number, r.status])).to.deep.equal([[1, 'unpublished'], [2, 'published']]);
    const data = await s.api('GET', v1(s, `/collections/${books}/resources/${created.body.key}/data/`));
    expect(data.body).to.deep.equal({ title: 'Dune (2nd ed.)' });
  });

  it('applies name only when sent (null removes it) and never changes external_id', async () => {
    const renamed = await put('isbn-1', { data: { title: 'Dune' }, name: 'Renamed' });
    expect(renamed.body).to.include({ name: 'Renamed', external_id: 'isbn-1' });
    const cleared = await put('isbn-1', { data: { title: 'Dune' }, name: null });
    expect(cleared.body.name).to.equal(null);
    const list = await s.api('GET', v1(s, `/collections/${books}/resources/?external_id=isbn-1`));
    expect(list.body.count).to.equal(1);
  });

  it('adds a draft revision with mode=draft and leaves current_revision alone', async () => {
    const before = await put('isbn-2', { data: { title: 'A' } });
    const draft = await put('isbn-2', { data: { title: 'B draft' }, mode: 'draft' });
    expect(draft.status).to.equal(200);
    expect(draft.body.current_revision).to.equal(before.body.current_revision);
    expect((await revisionsOf(before.body.key)).map((r) => r.status)).to.deep.equal(['published', 'draft']);
  });

  it('answers 202 with wait=false and the write shows up', async () => {
    const r = await put('isbn-3', { data: { title: 'Queued' } }, {}, '&wait=false');
    expect(r.status).to.equal(202);
    expect(r.body).to.include({ external_id: 'isbn-3', folder: books });
    const got = await eventually(() => s.api('GET', v1(s, `/collections/${books}/resources/${r.body.key}/`)), (x) => x.status === 200);
    expect(got.body.current_revision).to.equal(r.body.current_revision);
  });

  it('writes when If-Match names the current revision (quotes stripped or not)', async () => {
    const first = await put('isbn-4', { data: { title: 'One' } });
    const quoted = await put('isbn-4', { data: { title: 'Two' } }, { 'if-match': `"${first.body.current_revision}"` });
    expect(quoted.status).to.equal(200);
    const bare = await put('isbn-4', { data: { title: 'Three' } }, { 'if-match': quoted.body.current_revision });
    expect(bare.status).to.equal(200);
  });

  it('refuses a stale If-Match with 412 revision_precondition_failed naming the current revision, and writes nothing', async () => {
    const first = await put('isbn-5', { data: { title: 'One' } });
    const second = await put('isbn-5', { data: { title: 'Two' } });
    const stale = await put('isbn-5', { data: { title: 'Lost' } }, { 'if-match': `"${first.body.current_revision}"` });
    expect(stale.status).to.equal(412);
    expect(stale.body).to.deep.equal({ message: stale.body.message, error_code: 'revision_precondition_failed', detail: { current_revision: second.body.current_revision } });
    expect(await revisionsOf(first.body.key)).to.have.length(2);
    const fresh = await put('isbn-new', { data: { title: 'X' } }, { 'if-match': first.body.current_revision });
    expect(fresh.status, 'no resource yet: nothing is current').to.equal(412);
    expect(fresh.body.detail).to.deep.equal({ current_revision: null });
    expect((await s.api('GET', v1(s, `/collections/${books}/resources/?external_id=isbn-new`))).body.count).to.equal(0);
  });

  it('refuses a weak validator, *, or a value that is not a revision key with 422 invalid_revision_precondition', async () => {
    const first = await put('isbn-6', { data: { title: 'One' } });
    for (const value of [`W/"${first.body.current_revision}"`, '*', '"*"', 'not a key', `"${first.body.current_revision}", "abc"`, 'ABCDEFGHIJKL']) {
      const r = await put('isbn-6', { data: { title: 'X' } }, { 'if-match': value });
      expect(r.status, value).to.equal(422);
      expect(r.body.error_code, value).to.equal('invalid_revision_precondition');
    }
    expect(await revisionsOf(first.body.key)).to.have.length(1);
  });

  it('refuses an upsert without external_id with 422 external_id_required', async () => {
    for (const path of [`/collections/${books}/resources/`, `/collections/${books}/resources/?external_id=`]) {
      const r = await s.api('PUT', v1(s, path), { data: { title: 'X' } });
      expect(r.status).to.equal(422);
      expect(r.body.error_code).to.equal('external_id_required');
    }
  });

  it('refuses a bad external_id, an empty or over-long name and a schema failure with 422 data_validation_error', async () => {
    const cases: [string, unknown][] = [
      ['semi;colon', { data: { title: 'X' } }],
      ['a'.repeat(256), { data: { title: 'X' } }],
      ['ok-1', { data: { title: 'X' }, name: '' }],
      ['ok-1', { data: { title: 'X' }, name: 'n'.repeat(256) }],
      ['ok-1', { data: { title: 5 } }],
      ['isbn-1', { data: { title: 'X', unknown: true } }],
    ];
    for (const [externalId, body] of cases) {
      const r = await put(externalId, body);
      expect(r.status, `${externalId.slice(0, 12)} ${JSON.stringify(body).slice(0, 60)}`).to.equal(422);
      expect(r.body.error_code).to.equal('data_validation_error');
    }
    expect((await s.api('GET', v1(s, `/collections/${books}/resources/?external_id=ok-1`))).body.count).to.equal(0);
  });

  it('refuses a payload over 1 MB with json_size_exceeded, other bad bodies with validation_error, unknown collections with 404', async () => {
    const big = await put('big', { data: { title: 'x'.repeat(1024 * 1024) } });
    expect(big.status).to.equal(422);
    expect(big.body.error_code).to.equal('json_size_exceeded');
    for (const body of [{ data: 'text' }, {}, { data: { title: 'X' }, mode: 'later' }, { data: { title: 'X' }, validate_data: false }]) {
      const r = await put('shape', body);
      expect(r.status, JSON.stringify(body)).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
    }
    const missing = await s.api('PUT', v1(s, '/folders/nope/resources/?external_id=x'), { data: { title: 'X' } });
    expect(missing.status).to.equal(404);
    expect(missing.body.error_code).to.equal('collection_not_found');
  });

  it('uses resource_owner on creation only, in a strict-reference collection', async () => {
    const chapters = await collectionWithSchema(s, 'chapters', { parent: books, strict: true });
    const book = (await put('owner-book', { data: { title: 'Book' } })).body.key;
    const other = (await put('owner-other', { data: { title: 'Other' } })).body.key;
    const at = (body: unknown) => s.api('PUT', v1(s, `/folders/${chapters}/resources/?external_id=ch-1`), body);
    expect((await at({ data: { title: 'C' } })).body.error_code).to.equal('resource_owner_required');
    expect((await at({ data: { title: 'C' }, resource_owner: 'nope' })).body.error_code).to.equal('resource_owner_not_found');
    const created = await at({ data: { title: 'C' }, resource_owner: book });
    expect(created.status).to.equal(201);
    const again = await at({ data: { title: 'C2' }, resource_owner: other });
    expect(again.status).to.equal(200);
    expect(again.body.resource_owner, 'never changed by an update').to.equal(book);
  });
});
