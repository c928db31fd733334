import { expect } from 'chai';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type Reply, type TestService } from '../support/service.js';

describe('concurrent upserts of one external_id over HTTP', () => {
  let s: TestService;
  let folder: string;
  const put = (externalId: string, title: string, headers: Record<string, string> = {}) =>
    s.api('PUT', v1(s, `/collections/${folder}/resources/?external_id=${externalId}`), { data: { title } }, headers);
  const revisionsOf = async (key: string) =>
    (await s.api('GET', v1(s, `/collections/${folder}/resources/${key}/revisions/?limit=100`))).body.results as { key: string; number: number; status: string }[];

  /** Exactly one resource with revisions 1..N, no gap or duplicate, every acknowledged write among them. */
  const expectConsistent = async (externalId: string, replies: Reply[]) => {
    for (const r of replies) expect([200, 201, 409, 412], JSON.stringify(r.body)).to.include(r.status);
    const list = await s.api('GET', v1(s, `/collections/${folder}/resources/?external_id=${externalId}`));
    expect(list.body.count).to.equal(1);
    const key = list.body.results[0].key as string;
    const revisions = await revisionsOf(key);
    expect(revisions.map((r) => r.number)).to.deep.equal(revisions.map((_, i) => i + 1));
    expect(revisions.filter((r) => r.status === 'published')).to.have.length(1);
    const stored = new Set(revisions.map((r) => r.key));
    const acknowledged = replies.filter((r) => r.status === 200 || r.status === 201);
    for (const r of acknowledged) {
      expect(r.body.key).to.equal(key);
      const etag = (r.headers.get('etag') ?? '').replace(/"/g, '');
      expect(stored.has(etag), `acknowledged revision ${etag} is stored`).to.equal(true);
    }
    return { key, revisions, acknowledged };
  };

  before(async () => {
    s = await startTestService();
    folder = await collectionWithSchema(s, 'items');
  });
  after(async () => s?.stop());

  it('answers 50 parallel upserts (half with a stale If-Match) with success, 409 or 412, losing no acknowledged write', async () => {
    const first = await put('sku-1', 'v1');
    expect(first.status).to.equal(201);
    const stale = first.body.current_revision as string;
    expect((await put('sku-1', 'v2')).status).to.equal(200);
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? put('sku-1', `p${i}`, { 'if-match': `"${stale}"` }) : put('sku-1', `p${i}`))),
    );
    const staleReplies = replies.filter((_, i) => i % 2 === 0);
    expect(staleReplies.every((r) => r.status === 412), 'every stale If-Match is refused').to.equal(true);
    for (const r of staleReplies) expect(r.body.detail.current_revision).to.be.a('string').and.not.equal(stale);
    const { revisions, acknowledged } = await expectConsistent('sku-1', replies);
    expect(acknowledged.length).to.be.greaterThan(0);
    expect(revisions).to.have.length(2 + acknowledged.length);
  });

  it('creates exactly one resource when 50 parallel upserts start from a new external_id', async () => {
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => put('sku-new', `n${i}`)));
    expect(replies.filter((r) => r.status === 201)).to.have.length(1);
    expect(replies.some((r) => r.status === 412)).to.equal(false);
    const { revisions, acknowledged } = await expectConsistent('sku-new', replies);
    expect(revisions).to.have.length(acknowledged.length);
  });
});
