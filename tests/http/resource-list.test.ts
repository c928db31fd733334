import { expect } from 'chai';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

describe('resource list filters over HTTP', () => {
  let s: TestService;
  let parents: string;
  let children: string;
  const made: { key: string; created_at: string; current_revision: string | null }[] = [];
  let owner: string;
  const list = (folder: string, query: string) => s.api('GET', v1(s, `/collections/${folder}/resources/${query}`));
  const keys = (body: { results: { key: string }[] }) => body.results.map((r) => r.key);

  before(async () => {
    s = await startTestService();
    parents = await collectionWithSchema(s, 'parents');
    children = await collectionWithSchema(s, 'children', { parent: parents, strict: true });
    for (let i = 0; i < 5; i++) {
      const body = { data: { title: `R${i}` }, mode: i % 2 === 0 ? 'instant' : 'draft' };
      const r = await s.api('POST', v1(s, `/collections/${parents}/resources/?external_id=ext-${i}`), body);
      made.push(r.body);
      await new Promise((resolve) => setTimeout(resolve, 3)); // distinct created_at values
    }
    owner = made[0]!.key;
    await s.api('POST', v1(s, `/collections/${children}/resources/`), { data: { title: 'C0' }, resource_owner: owner });
    await s.api('POST', v1(s, `/collections/${children}/resources/`), { data: { title: 'C1' }, resource_owner: made[2]!.key });
  });
  after(async () => s?.stop());

  it('filters by status', async () => {
    expect(keys((await list(parents, '?status=published')).body)).to.deep.equal([made[0]!.key, made[2]!.key, made[4]!.key]);
    expect(keys((await list(parents, '?status=draft')).body)).to.deep.equal([made[1]!.key, made[3]!.key]);
  });

  it('filters by created_at exactly and with gt, gte, lt, lte', async () => {
    const at = made[2]!.created_at;
    expect(keys((await list(parents, `?created_at=${at}`)).body)).to.deep.equal([made[2]!.key]);
    expect(keys((await list(parents, `?created_at__gt=${at}`)).body)).to.deep.equal([made[3]!.key, made[4]!.key]);
    expect(keys((await list(parents, `?created_at__gte=${at}`)).body)).to.deep.equal([made[2]!.key, made[3]!.key, made[4]!.key]);
    expect(keys((await list(parents, `?created_at__lt=${at}`)).body)).to.deep.equal([made[0]!.key, made[1]!.key]);
    expect(keys((await list(parents, `?created_at__lte=${at}`)).body)).to.deep.equal([made[0]!.key, made[1]!.key, made[2]!.key]);
  });

  it('filters by content_type, resource_owner and external_id', async () => {
    expect((await list(parents, '?content_type=document')).body.count).to.equal(5);
    expect((await list(parents, '?content_type=other')).body.count).to.equal(0);
    const owned = await list(children, `?resource_owner=${owner}`);
    expect(owned.body.count).to.equal(1);
    expect(owned.body.results[0].resource_owner).to.equal(owner);
    expect(keys((await list(parents, '?external_id=ext-3')).body)).to.deep.equal([made[3]!.key]);
    expect((await list(parents, '?external_id=none')).body).to.include({ count: 0, next: null, previous: null });
  });

  it('filters by key__in, truncated to the page size', async () => {
    const all = made.map((m) => m.key).join(',');
    expect(keys((await list(parents, `?key__in=${made[1]!.key},${made[3]!.key},nope`)).body)).to.deep.equal([made[1]!.key, made[3]!.key]);
    const truncated = await list(parents, `?key__in=${all}&limit=2`);
    expect(truncated.body.count, 'only the first two keys are looked at').to.equal(2);
    expect(keys(truncated.body)).to.deep.equal([made[0]!.key, made[1]!.key]);
  });

  it('orders by created_at either way and pages with working next and previous URLs', async () => {
    expect(keys((await list(parents, '?ordering=-created_at')).body)).to.deep.equal(made.map((m) => m.key).reverse());
    const auth = { authorization: `Bearer ${s.token}` };
    const first = await list(parents, '?limit=2&status=published');
    expect(first.body).to.include({ count: 3, previous: null });
    const second = await s.get(first.body.next, auth);
    expect(keys(second.body)).to.deep.equal([made[4]!.key]);
    expect(second.body.next).to.equal(null);
    expect(keys((await s.get(second.body.previous, auth)).body)).to.deep.equal(keys(first.body));
    expect(keys((await list(parents, '?limit=2&offset=3')).body)).to.deep.equal([made[3]!.key, made[4]!.key]);
    expect((await list(parents, '?limit=500')).body.results).to.have.length(5);
  });

  it('refuses invalid query parameters with 422 validation_error', async () => {
    for (const query of ['?status=gone', '?created_at=yesterday', '?created_at__gt=2026-13-45', '?ordering=name', '?limit=0', '?limit=x', '?offset=-2', '?status=draft&status=published']) {
      const r = await list(parents, query);
      expect(r.status, query).to.equal(422);
      expect(r.body.error_code, query).to.equal('validation_error');
    }
  });
});
