import { expect } from 'chai';
import { DELIVERY_CONSUMER } from '../../projections/delivery-index.js';
import type { StoredEvent } from '../../commands/ports.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import { collectionWithSchema, eventually, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

/** Makes the named projection throw on every event whose data mentions POISON, while `armed.on`. */
function poisoner(name: string, armed: { on: boolean }) {
  const poisonous = (e: StoredEvent) => armed.on && JSON.stringify(e.data).includes('POISON');
  return (target: ProjectionTarget): ProjectionTarget =>
    target.name !== name
      ? target
      : {
          name: target.name,
          checkpoint: () => target.checkpoint(),
          async apply(events, position) {
            if (events.some(poisonous)) throw new Error('cannot project this event');
            await target.apply(events, position);
          },
        };
}

/** A public delivery API `site` serving the collection; returns the delivery URL of one item. */
async function deliver(s: TestService, folder: string, alias: string): Promise<(key: string, at?: TestService) => string> {
  const api = await s.api('POST', v1(s, '/api/'), { name: 'Site', prefix: 'site' });
  expect(api.status).to.equal(201);
  const connected = await s.api('POST', v1(s, `/api/${api.body.key}/collections/`), { folder, allowed_methods: ['get_many', 'get_one'] });
  expect(connected.status).to.equal(201);
  return (key, at = s) => `${at.service.urls.delivery}/${s.env}/site/${alias}/${key}/`;
}

const create = (s: TestService, folder: string, title: string) => s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title } });
const DELIVERY = DELIVERY_CONSUMER;
const statusOf = (s: TestService, name: string) => s.service.projections.status().find((p) => p.name === name);

describe('projection faults', () => {
  // A long wait timeout: a 202 below can only come from the stopped projection, not from slowness.
  const env = { WAIT_TIMEOUT_MS: '60000' };

  describe('a delivery-index projection that throws on one event', () => {
    const armed = { on: true };
    let s: TestService;
    let folder: string;
    let item: (key: string) => string;

    before(async () => {
      s = await startTestService(env, undefined, { wrapProjectionTarget: poisoner(DELIVERY, armed) });
      folder = await collectionWithSchema(s, 'articles');
      item = await deliver(s, folder, 'articles');
    });
    after(async () => s?.stop());

    it('stops alone, reports the event, its position and the error, and wait=true writes answer 202', async () => {
      const before = await create(s, folder, 'Before');
      expect(before.status).to.equal(201);
      const poisoned = await create(s, folder, 'POISON');
      expect(poisoned.status).to.equal(202);
      const stopped = statusOf(s, DELIVERY);
      expect(stopped?.stopped).to.equal(true);
      expect(stopped?.error?.message).to.equal('cannot project this event');
      expect(stopped?.error?.event_type, 'the revision carries the payload').to.equal('RevisionCreated');
      expect((stopped?.position ?? '') < (stopped?.error?.position ?? ''), 'the checkpoint stays before the faulty event').to.equal(true);
      for (const other of ['read-models', 'revisions']) {
        expect(statusOf(s, other)).to.include({ stopped: false, error: null, lag: 0 });
      }
      // Every other projection goes on: the management read model has the resource.
      const got = await s.api('GET', v1(s, `/collections/${folder}/resources/${poisoned.body.key}/`));
      expect(got.status).to.equal(200);
      const after = await create(s, folder, 'After');
      expect(after.status).to.equal(202);
      expect((await s.api('GET', v1(s, `/collections/${folder}/resources/${after.body.key}/`))).status).to.equal(200);
      expect(statusOf(s, DELIVERY)?.lag).to.be.greaterThan(0);
      // What was applied before the fault is served; the rest is not yet.
      expect((await s.get(item(before.body.key))).status).to.equal(200);
      expect((await s.get(item(after.body.key))).status).to.equal(404);
    });

    it('resumes from its checkpoint after the fix: every document served, the status clear', async () => {
      armed.on = false;
      s.service.projections.retry();
      const list = await eventually(() => s.get(`${s.delivery}/site/articles/?limit=50`), (r) => r.body?.results?.length === 3);
      expect(list.body.results.map((r: { data: { title: string } }) => r.data.title)).to.have.members(['Before', 'POISON', 'After']);
      expect(statusOf(s, DELIVERY)).to.deep.include({ stopped: false, error: null, lag: 0 });
      expect((await create(s, folder, 'Later')).status).to.equal(201);
    });
  });

  describe('a read-model projection that throws in the middle of a batch', () => {
    const armed = { on: false };
    let s: TestService;
    let folder: string;

    before(async () => {
      s = await startTestService(env, undefined, { wrapProjectionTarget: poisoner('read-models', armed) });
      folder = await collectionWithSchema(s, 'notes');
    });
    after(async () => s?.stop());

    it('applies the events before the faulty one once, and the rest once after the fix', async () => {
      armed.on = true;
      const runner = s.service.projections.runner('read-models');
      runner?.pause();
      // One batch, in this order: two good writes, the faulty one, one more good one.
      const sent = [];
      for (const title of ['one', 'two', 'POISON', 'three']) sent.push(await s.api('POST', v1(s, `/collections/${folder}/resources/?wait=false`), { data: { title } }));
      runner?.resume();
      const stopped = await eventually(async () => statusOf(s, 'read-models'), (x) => x?.stopped === true);
      expect(stopped?.error?.event_type).to.equal('RevisionCreated');
      const list = await s.api('GET', v1(s, `/collections/${folder}/resources/?limit=50`));
      const titles = (r: { body: { results: { key: string }[] } }) => r.body.results.map((x) => x.key);
      const keys = sent.map((r) => r.body.key as string);
      // Applied up to the faulty revision (its resource's creation came just before it), nothing after.
      expect(titles(list)).to.have.members(keys.slice(0, 3));
      armed.on = false;
      s.service.projections.retry();
      const all = await eventually(() => s.api('GET', v1(s, `/collections/${folder}/resources/?limit=50`)), (r) => r.body.count === 4);
      expect(titles(all)).to.have.members(keys);
      for (const key of keys) {
        const audit = await s.api('GET', v1(s, `/events/?entity_type=resource&entity_key=${key}`));
        expect(audit.body.results.map((e: { event_type: string }) => e.event_type), `the audit entries of ${key}`).to.deep.equal(['create']);
      }
    });
  });

  describe('a restart', () => {
    it('does not wait on a poisoned projection, and a restart with the fix catches up', async () => {
      const armed = { on: true };
      const first = await startTestService(env, undefined, { wrapProjectionTarget: poisoner(DELIVERY, armed) });
      const folder = await collectionWithSchema(first, 'pages');
      const item = await deliver(first, folder, 'pages');
      const poisoned = await create(first, folder, 'POISON');
      expect(poisoned.status).to.equal(202);
      await first.stop();

      // Still poisoned: the start finishes (the catch-up wait ends on the fault) and reports it.
      const again = await startTestService(env, first.dataDir, { wrapProjectionTarget: poisoner(DELIVERY, armed) });
      expect(statusOf(again, DELIVERY)?.stopped).to.equal(true);
      expect(statusOf(again, 'read-models')?.stopped).to.equal(false);
      await again.stop();

      // The fixed code: no wrapper. The faulty event is applied once and served.
      const fixed = await startTestService(env, first.dataDir);
      try {
        // The projections are caught up when the start returns (the reactors catch up beside them).
        const reactors = new Set(fixed.service.projections.reactors.map((r) => r.name));
        const projections = fixed.service.projections.status().filter((p) => !reactors.has(p.name));
        expect(projections.every((p) => !p.stopped && p.lag === 0), JSON.stringify(projections)).to.equal(true);
        const served = await fixed.get(item(poisoned.body.key, fixed));
        expect(served.status).to.equal(200);
        expect(served.body.data).to.deep.equal({ title: 'POISON' });
      } finally {
        await fixed.stop();
      }
    });
  });
});
