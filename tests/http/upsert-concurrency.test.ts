import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../commands/ports.js';
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

describe('revision_number_conflict over HTTP: another writer wins every append', () => {
  let s: TestService;
  let inner: EventStore;
  let folder: string;
  /** While set, every append of a new revision is preceded by another writer's event on the same stream. */
  let interfere = false;
  let interlopers = 0;

  /** The real event store, except that another writer appends to a resource stream right before each revision. */
  const racing = (store: EventStore): EventStore => {
    inner = store;
    return {
      async appendToStream(stream, events, expected) {
        if (interfere && events[0]?.type === 'RevisionCreated') {
          interlopers += 1;
          const data = { env: s.env, folder, key: stream.slice('resource-'.length), name: `other writer ${interlopers}` };
          const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: new Date().toISOString() } as const;
          await store.appendToStream(stream, [{ id: randomUUID(), type: 'ResourceUpdated', data, metadata }], 'any');
        }
        return store.appendToStream(stream, events, expected);
      },
      readStream: (stream, from) => store.readStream(stream, from),
      readAll: (after, limit) => store.readAll(after, limit),
      subscribeToAll: (after) => store.subscribeToAll(after),
      headPosition: () => store.headPosition(),
      close: () => store.close(),
    };
  };
  const resources = () => v1(s, `/collections/${folder}/resources/`);
  const revisionsIn = async (key: string) => (await inner.readStream(`resource-${key}`)).filter((e) => e.type === 'RevisionCreated').length;
  /** Runs `write` while the other writer interferes; returns its answer and how often the other writer won. */
  const lost = async (write: () => Promise<Reply>) => {
    interlopers = 0;
    interfere = true;
    try {
      return { reply: await write(), attempts: interlopers };
    } finally {
      interfere = false;
    }
  };

  before(async () => {
    s = await startTestService({}, undefined, { wrapEventStore: racing });
    folder = await collectionWithSchema(s, 'contested');
  });
  after(async () => s?.stop());

  it('answers a PUT upsert and a POST revision with 409 revision_number_conflict after the bounded retries, writing no revision; the same write succeeds again', async () => {
    const first = await s.api('PUT', `${resources()}?external_id=sku-1`, { data: { title: 'First' } });
    expect(first.status).to.equal(201);
    const key = first.body.key as string;

    const upsert = await lost(() => s.api('PUT', `${resources()}?external_id=sku-1`, { data: { title: 'Lost' } }));
    expect(upsert.attempts, 'one lost append per attempt').to.equal(5);
    expect(upsert.reply.status).to.equal(409);
    expect(upsert.reply.body).to.deep.equal({ message: upsert.reply.body.message, error_code: 'revision_number_conflict', detail: null });

    const revision = await lost(() => s.api('POST', `${resources()}${key}/revisions/`, { data: { title: 'Lost too' } }));
    expect(revision.attempts).to.equal(5);
    expect(revision.reply.status).to.equal(409);
    expect(revision.reply.body.error_code).to.equal('revision_number_conflict');

    expect(await revisionsIn(key), 'the refused writes appended no revision').to.equal(1);
    await s.service.projections.waitFor(await inner.headPosition(), 5000);
    const listed = await s.api('GET', `${resources()}${key}/revisions/`);
    expect(listed.body.results.map((r: { key: string }) => r.key)).to.deep.equal([first.body.current_revision]);
    expect((await s.api('GET', `${resources()}${key}/data/`)).body).to.deep.equal({ title: 'First' });
    const audited = await s.api('GET', v1(s, `/events/?entity_type=revision&resource_key=${key}`));
    expect(audited.body.count).to.equal(1);

    const retried = await s.api('PUT', `${resources()}?external_id=sku-1`, { data: { title: 'Lost' } });
    expect(retried.status).to.equal(200);
    expect((await s.api('GET', `${resources()}${key}/data/`)).body).to.deep.equal({ title: 'Lost' });
    expect(await revisionsIn(key)).to.equal(2);
  });
});
