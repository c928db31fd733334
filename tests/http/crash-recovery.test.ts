import { expect } from 'chai';
import type { StoredEvent } from '../../commands/ports.js';
import { auditKey } from '../../projections/audit-log.js';
import { apiOf, startChildService } from '../support/child-service.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { crashUnderLoad, type LoadResult } from '../support/crash-load.js';
import { allEvents, deliveryDocs, eventsOnlyCopy, readModels } from '../support/data-dir.js';
import { startTestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';

/** `npm run crash` raises these; `npm test` keeps to a few thousand writes. */
const WRITES = Number(process.env.CRASH_WRITES ?? 5000);
const KILL_AFTER = Number(process.env.CRASH_KILL_AFTER ?? Math.floor(WRITES * 0.6));
const EXTERNAL_IDS = 200;

type Data = Record<string, unknown>;
const titleOf = (e: StoredEvent): string | null => {
  const payload = (e.data as Data).data as Data | undefined;
  return typeof payload?.title === 'string' ? payload.title : null;
};

describe('a crash under load (SIGKILL mid-write, restart on the same data directory)', function () {
  this.timeout(60_000 + WRITES * 40);
  const dataDir = tempDir();
  let env = '';
  let folder = '';
  let load: LoadResult;
  let events: StoredEvent[];

  before(async () => {
    const child = await startChildService(dataDir);
    env = child.bootstrap.environment;
    const api = apiOf(child);
    folder = await collectionWithSchema({ env, api }, 'crash');
    load = await crashUnderLoad(child, { folder, writes: WRITES, killAfter: KILL_AFTER, concurrency: 32, externalIds: EXTERNAL_IDS });

    // The restart: the service comes back on the same directory, every projection catches up.
    const restarted = await startTestService({}, dataDir);
    try {
      // The projections are caught up when the start returns; the reactors catch up beside them.
      const head = restarted.service.projections.runner('read-models')?.checkpoint ?? '';
      for (const reactor of restarted.service.projections.reactors) expect(await reactor.waitFor(head, 30_000), reactor.name).to.equal(true);
      const status = restarted.service.projections.status();
      expect(status.every((p) => !p.stopped && p.lag === 0), JSON.stringify(status)).to.equal(true);
      // A claim left without its resource by the crash is taken up by the next upsert of its value.
      for (let i = 0; i < EXTERNAL_IDS; i += 20) {
        const upserts = await Promise.all(
          Array.from({ length: 20 }, (_, j) => restarted.api('PUT', v1(restarted, `/collections/${folder}/resources/?external_id=ext-${i + j}`), { data: { title: `after-${i + j}` } })),
        );
        for (const r of upserts) expect(r.status, JSON.stringify(r.body)).to.be.oneOf([200, 201]);
      }
      expect((await restarted.api('POST', v1(restarted, `/collections/${folder}/resources/`), { data: { title: 'after' } })).status).to.equal(201);
    } finally {
      await restarted.stop();
    }
    events = await allEvents(dataDir);
    const figures = { sent: load.acked.length + load.unanswered + [...load.statuses].filter(([s]) => s >= 300).reduce((n, [, c]) => n + c, 0), acknowledged: load.acked.length, unanswered: load.unanswered, statuses: Object.fromEntries(load.statuses) };
    process.stdout.write(`      crash figures: ${JSON.stringify(figures)}\n`);
  });

  it('was killed in the middle of the load, with writes acknowledged and others in flight', () => {
    expect(load.acked.length).to.be.at.least(KILL_AFTER);
    expect(load.acked.length + load.unanswered).to.be.lessThan(WRITES);
    expect(load.unanswered, 'requests cut off by the kill').to.be.greaterThan(0);
    expect([...load.statuses.keys()].filter((s) => s >= 500), 'no 5xx before the kill').to.deep.equal([]);
    for (const kind of ['create', 'upsert', 'revision']) expect(load.acked.some((a) => a.kind === kind), kind).to.equal(true);
  });

  it('keeps every acknowledged write, each exactly once', () => {
    const byTitle = new Map<string, StoredEvent[]>();
    for (const e of events) {
      const title = e.type === 'RevisionCreated' ? titleOf(e) : null;
      if (title !== null) byTitle.set(title, [...(byTitle.get(title) ?? []), e]);
    }
    const lost = load.acked.filter((a) => (byTitle.get(`w-${a.n}`) ?? []).length === 0);
    expect(lost.map((a) => a.n), 'lost').to.deep.equal([]);
    const duplicated = [...byTitle].filter(([, list]) => list.length > 1).map(([title]) => title);
    expect(duplicated, 'written twice').to.deep.equal([]);
    for (const a of load.acked) {
      const [revision] = byTitle.get(`w-${a.n}`) ?? [];
      expect((revision?.data as Data).resource, `write ${a.n} went to its resource`).to.equal(a.resource);
    }
  });

  it('leaves no partial command: every resource stream starts with its creation and first revision, one resource per external_id', () => {
    const streams = new Map<string, StoredEvent[]>();
    for (const e of events) if (e.stream.startsWith('resource-')) streams.set(e.stream, [...(streams.get(e.stream) ?? []), e]);
    expect(streams.size).to.be.greaterThan(0);
    for (const [stream, list] of streams) {
      expect(list.slice(0, 2).map((e) => e.type), stream).to.deep.equal(['ResourceCreated', 'RevisionCreated']);
      expect(list[0]?.position, `${stream}: one append`).to.equal(String(Number(list[1]?.position) - 1).padStart(20, '0'));
    }
    const perExternalId = new Map<string, number>();
    for (const e of events) {
      const id = e.type === 'ResourceCreated' ? (e.data as Data).external_id : null;
      if (typeof id === 'string') perExternalId.set(id, (perExternalId.get(id) ?? 0) + 1);
    }
    expect(perExternalId.size).to.equal(EXTERNAL_IDS);
    expect([...perExternalId].filter(([, n]) => n !== 1), 'external_ids with more than one resource').to.deep.equal([]);
  });

  it('has an audit entry for every acknowledged write and the resource of each in the read model', () => {
    const models = readModels(dataDir);
    const audit = models.rm_audit_events ?? {};
    const resources = models.rm_resources ?? {};
    const revisionOf = new Map(events.filter((e) => e.type === 'RevisionCreated').map((e) => [titleOf(e), e]));
    const missing = load.acked.filter((a) => {
      const revision = revisionOf.get(`w-${a.n}`);
      return !revision || !(auditKey(revision) in audit) || !(a.resource in resources);
    });
    expect(missing.map((a) => a.n)).to.deep.equal([]);
  });

  it('has read models and a delivery index equal to a rebuild from zero of the same event store', async () => {
    const rebuilt = eventsOnlyCopy(dataDir);
    const s = await startTestService({}, rebuilt);
    await s.stop();
    const [after, fresh] = [readModels(dataDir), readModels(rebuilt)];
    expect(Object.keys(after)).to.deep.equal(Object.keys(fresh));
    for (const table of Object.keys(fresh)) expect(after[table], table).to.deep.equal(fresh[table]);
    const [served, rebuiltServed] = await Promise.all([deliveryDocs(dataDir, env, folder), deliveryDocs(rebuilt, env, folder)]);
    expect(served.length).to.be.greaterThan(load.acked.length / 4);
    expect(served).to.deep.equal(rebuiltServed);
  });
});
