import { expect } from 'chai';
import type { EventStore } from '../../commands/ports.js';
import { collectionWithSchema, eventually, v1 } from '../support/content.js';
import { allEvents } from '../support/data-dir.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * A crash in the middle of a cascade: once `armed`, appends that `dies` matches fail after
 * `allowed` of them went through, as if the process had stopped there.
 */
function crashSeam(dies: (stream: string, type: string) => boolean) {
  const seam = { armed: false, allowed: 0 };
  const wrap = (store: EventStore): EventStore =>
    new Proxy(store, {
      get(target, name, receiver) {
        if (name !== 'appendToStream') return Reflect.get(target, name, receiver);
        return async (...args: Parameters<EventStore['appendToStream']>) => {
          const [stream, events] = args;
          if (seam.armed && dies(stream, events[0]?.type ?? '') && seam.allowed-- <= 0) throw new Error('crash');
          return target.appendToStream(...args);
        };
      },
    });
  return { seam, wrap };
}

const reactor = (s: TestService) => s.service.projections.status().find((p) => p.name === 'cascades');

/** After a restart: until the reactor has handled everything the read models have, and the read side has what it appended. */
async function cascadesCaughtUp(s: TestService): Promise<void> {
  const head = s.service.projections.runner('read-models')?.checkpoint ?? '';
  expect(await s.service.projections.waitForCascade(head, 30_000), JSON.stringify(reactor(s))).to.equal(true);
}

describe('cascades resume after a crash in the middle', () => {
  it('a strict-reference resource delete cut off after two descendants deletes the rest after the restart, each once', async () => {
    const { seam, wrap } = crashSeam((stream, type) => stream.startsWith('resource-') && type === 'ResourceDeleted');
    const s = await startTestService({ WAIT_TIMEOUT_MS: '20000' }, undefined, { wrapEventStore: wrap });
    const courses = await collectionWithSchema(s, 'courses');
    const modules = await collectionWithSchema(s, 'modules', { parent: courses, strict: true });
    const lessons = await collectionWithSchema(s, 'lessons', { parent: modules, strict: true });
    const create = async (folder: string, owner: string | null) => {
      const r = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 't' }, resource_owner: owner });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      return r.body.key as string;
    };
    const course = await create(courses, null);
    const kept = await create(courses, null);
    const tree: [string, string][] = [];
    for (let m = 0; m < 3; m++) {
      const module = await create(modules, course);
      tree.push([modules, module]);
      for (let l = 0; l < 2; l++) tree.push([lessons, await create(lessons, module)]);
    }
    const keptChild = await create(modules, kept);

    seam.armed = true;
    seam.allowed = 1 + 2; // the course itself, then two of its nine descendants
    const deleted = await s.api('DELETE', v1(s, `/collections/${courses}/resources/${course}/`));
    expect(deleted.status, 'the cascade did not finish: accepted, not done').to.equal(202);
    const stopped = await eventually(async () => reactor(s), (r) => r?.stopped === true);
    expect(stopped?.error?.event_type).to.equal('ResourceDeleted');
    const left = [];
    for (const [folder, key] of tree) if ((await s.api('GET', v1(s, `/collections/${folder}/resources/${key}/`))).status === 200) left.push(key);
    expect(left.length, 'descendants left by the crash').to.be.within(1, 8);
    await s.stop();

    const again = await startTestService({}, s.dataDir);
    try {
      await cascadesCaughtUp(again);
      const gone = async () => {
        const statuses = await Promise.all(tree.map(([folder, key]) => again.api('GET', v1(again, `/collections/${folder}/resources/${key}/`))));
        return statuses.every((r) => r.status === 404);
      };
      expect(await eventually(gone, Boolean), 'every descendant deleted after the restart').to.equal(true);
      expect(reactor(again)).to.deep.include({ stopped: false, error: null });
      expect((await again.api('GET', v1(again, `/collections/${courses}/resources/${kept}/`))).status).to.equal(200);
      expect((await again.api('GET', v1(again, `/collections/${modules}/resources/${keptChild}/`))).status).to.equal(200);
      for (const [, key] of tree) {
        const audit = await again.api('GET', v1(again, `/events/?entity_type=resource&event_type=delete&entity_key=${key}`));
        expect(audit.body.count, `one delete entry for ${key}`).to.equal(1);
      }
    } finally {
      await again.stop();
    }
    const deletes = (await allEvents(s.dataDir)).filter((e) => e.type === 'ResourceDeleted').map((e) => (e.data as { key: string }).key);
    expect(deletes).to.have.members([course, ...tree.map(([, key]) => key)]);
  });

  it('a collection delete cut off before its slots and connections are released finishes after the restart', async () => {
    const { seam, wrap } = crashSeam((stream) => stream.startsWith('apis-') || stream.startsWith('resourcequota-'));
    const env = { WAIT_TIMEOUT_MS: '20000', RESOURCE_LIMIT: '2' };
    const s = await startTestService(env, undefined, { wrapEventStore: wrap });
    const folder = await collectionWithSchema(s, 'doomed');
    const other = await collectionWithSchema(s, 'other');
    const api = await s.api('POST', v1(s, '/api/'), { name: 'Site', prefix: 'site' });
    expect((await s.api('POST', v1(s, `/api/${api.body.key}/collections/`), { folder, allowed_methods: ['get_many'] })).status).to.equal(201);
    for (const title of ['a', 'b']) expect((await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title } })).status).to.equal(201);
    expect((await s.api('POST', v1(s, `/collections/${other}/resources/`), { data: { title: 'c' } })).body.error_code, 'the limit is reached').to.equal('plan_limit_exceeded');

    seam.armed = true;
    const deleted = await s.api('DELETE', v1(s, `/collections/tree/collection/?key=${folder}`));
    expect(deleted.status).to.equal(202);
    expect((await eventually(async () => reactor(s), (r) => r?.stopped === true))?.error?.event_type).to.equal('CollectionDeleted');
    await s.stop();

    const again = await startTestService(env, s.dataDir);
    try {
      await cascadesCaughtUp(again);
      const created = await eventually(() => again.api('POST', v1(again, `/collections/${other}/resources/`), { data: { title: 'c' } }), (r) => r.status === 201);
      expect(created.status, 'the deleted collection’s slots are free again').to.equal(201);
      expect(reactor(again)).to.deep.include({ stopped: false, error: null });
    } finally {
      await again.stop();
    }
    const events = await allEvents(s.dataDir);
    const disconnected = events.filter((e) => e.type === 'CollectionDisconnected' && (e.data as { folder: string }).folder === folder);
    expect(disconnected, 'the connection dropped once').to.have.length(1);
    expect(events.filter((e) => e.type === 'CollectionSlotsReleased'), 'the slots released once').to.have.length(1);
  });
});
