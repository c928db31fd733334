import { expect } from 'chai';
import type { EventStore } from '../../commands/ports.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

describe('concurrent resource creates over HTTP (group commit)', () => {
  let s: TestService;
  let store: EventStore | null = null;
  let folder: string;

  before(async () => {
    s = await startTestService({ PLAN: 'pro' }, undefined, { wrapEventStore: (opened) => (store = opened) });
    folder = await collectionWithSchema(s, 'articles');
    const api = await s.api('POST', v1(s, '/api/'), { name: 'Site', prefix: 'site' });
    await s.api('POST', v1(s, `/api/${api.body.key}/collections/`), { folder, allowed_methods: ['get_many', 'get_one'] });
  });
  after(async () => s?.stop());

  it('answers 40 parallel creates with wait=true 201 each, commits them in fewer transactions, and delivers every one', async () => {
    expect(store).to.be.instanceOf(SqliteEventStore);
    const stats = (store as SqliteEventStore).stats;
    const before = { ...stats };
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: `t${i}`, views: i } })));
    for (const r of replies) expect(r.status, JSON.stringify(r.body)).to.equal(201);
    const keys = replies.map((r) => r.body.key as string);
    expect(new Set(keys).size).to.equal(40);
    expect(stats.appends - before.appends).to.equal(40);
    expect(stats.commits - before.commits).to.be.below(40);
    const list = await s.api('GET', v1(s, `/collections/${folder}/resources/?limit=100`));
    expect(list.body.count).to.equal(40);
    for (const [i, key] of keys.entries()) {
      const one = await s.get(`${s.delivery}/site/articles/${key}/`);
      expect(one.status).to.equal(200);
      expect(one.body.data).to.deep.equal({ title: `t${i}`, views: i });
    }
  });

  it('refuses the invalid creates among parallel ones with 422 and stores only the valid ones', async () => {
    const bodies = Array.from({ length: 20 }, (_, i) => ({ data: i % 2 === 0 ? { title: `ok${i}` } : { title: i } }));
    const replies = await Promise.all(bodies.map((body) => s.api('POST', v1(s, `/collections/${folder}/resources/`), body)));
    replies.forEach((r, i) => expect(r.status, JSON.stringify(r.body)).to.equal(i % 2 === 0 ? 201 : 422));
    const list = await s.api('GET', v1(s, `/collections/${folder}/resources/?limit=100`));
    expect(list.body.count).to.equal(50);
  });
});

describe('concurrent creates on one hot stream (RESOURCE_LIMIT counts every create on one stream)', () => {
  let s: TestService;
  let folder: string;

  before(async () => {
    s = await startTestService({ PLAN: 'pro', RESOURCE_LIMIT: '1000' });
    folder = await collectionWithSchema(s, 'articles');
  });
  after(async () => s?.stop());

  it('answers 100 parallel creates 201 each: appends to the shared slot stream queue up instead of running out of retries', async () => {
    const replies = await Promise.all(Array.from({ length: 100 }, (_, i) => s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: `t${i}` } })));
    expect(replies.map((r) => r.status)).to.deep.equal(replies.map(() => 201));
    const list = await s.api('GET', v1(s, `/collections/${folder}/resources/?limit=1`));
    expect(list.body.count).to.equal(100);
  });
});
