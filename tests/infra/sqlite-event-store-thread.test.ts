import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { firstValueFrom, take, toArray } from 'rxjs';
import { WrongExpectedRevision, type NewEvent } from '../../commands/ports.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { WriterSyncGate } from '../../infra/sqlite/event-store-writer.js';
import { tempDir } from '../support/temp.js';

const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } as const;
const event = (type: string, data: unknown = {}): NewEvent => ({ id: randomUUID(), type, data, metadata });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds (the writer thread works beside the test), at most two seconds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !done(); i++) await sleep(5);
  expect(done(), 'timed out').to.equal(true);
}

/** Whether a promise has settled after a short wait. */
const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await sleep(20);
  return done;
};

describe("SQLite event store: the group commit and WAL sync on the writer thread (docs/decisions/0315)", () => {
  let file: string;
  let gate: WriterSyncGate;
  let store: SqliteEventStore;

  beforeEach(() => {
    file = `${tempDir()}/events.db`;
    gate = new WriterSyncGate();
    store = new SqliteEventStore(file, { thread: true, threadGate: gate });
  });
  afterEach(async () => {
    gate.release();
    await store.close();
  });

  it('answers an append, and shows it to readers of $all, only once its WAL sync ended; the command side reads its stream at once', async () => {
    const first = await store.appendToStream('before', [event('A')], 'no_stream');
    const seen = firstValueFrom(store.subscribeToAll(first.position));
    gate.hold();
    const held = store.appendToStream('later', [event('B')], 'no_stream');
    await until(() => gate.waited === 1);
    expect(await settled(held)).to.equal(false);
    expect(await store.readStream('later')).to.have.length(1);
    expect(await store.readAll('', 10)).to.have.length(1);
    expect(await store.headPosition()).to.equal(first.position);
    expect(await settled(seen)).to.equal(false);
    gate.release();
    const answered = await held;
    expect((await seen).position).to.equal(answered.position);
    expect(await store.readAll('', 10)).to.have.length(2);
    expect(await store.headPosition()).to.equal(answered.position);
  });

  it('commits the appends that arrive while a group syncs as the next group, together', async () => {
    gate.hold();
    const a = store.appendToStream('a', [event('A')], 'no_stream');
    await until(() => gate.waited === 1);
    const more = Array.from({ length: 10 }, (_, i) => store.appendToStream(`m-${i}`, [event('M', { i })], 'no_stream'));
    await sleep(20);
    gate.release();
    await Promise.all([a, ...more]);
    expect(store.stats).to.deep.equal({ commits: 2, appends: 11, syncs: 2 });
    const all = await store.readAll('', 100);
    expect(all.map((e) => e.stream)).to.deep.equal(['a', ...Array.from({ length: 10 }, (_, i) => `m-${i}`)]);
  });

  it('rolls back a refused append of a group alone, keeps the hash chain whole and tells the conflict with the real revision', async () => {
    await store.appendToStream('taken', [event('A')], 'no_stream');
    gate.hold();
    const blocker = store.appendToStream('blocker', [event('A')], 'no_stream');
    await until(() => gate.waited === 1);
    const results = Promise.allSettled([
      store.appendToStream('first', [event('A')], 'no_stream'),
      store.appendToStream('taken', [event('B')], 'no_stream'),
      store.appendToStream('odd', [{ ...event('X'), data: { n: 1n } }], 'no_stream'),
      store.appendToStream('last', [event('A')], 'no_stream'),
    ]);
    await sleep(20);
    gate.release();
    await blocker;
    const [first, taken, odd, last] = await results;
    expect([first, taken, odd, last].map((r) => r!.status)).to.deep.equal(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    const conflict = (taken as PromiseRejectedResult).reason as WrongExpectedRevision;
    expect(conflict).to.be.instanceOf(WrongExpectedRevision);
    expect(conflict.actual).to.equal(0);
    expect((odd as PromiseRejectedResult).reason).to.be.instanceOf(TypeError);
    expect(await store.readStream('odd')).to.deep.equal([]);
    expect((await store.readAll('', 10)).map((e) => e.stream)).to.deep.equal(['taken', 'blocker', 'first', 'last']);
    const chain = await store.verifyChain();
    expect(chain.verified).to.equal(true);
    expect(chain.checked).to.equal(4);
  });

  it('refuses the callers of a group whose sync failed and every later append, and shows readers none of it', async () => {
    const kept = await store.appendToStream('kept', [event('A')], 'no_stream');
    gate.failNext();
    const failed = store.appendToStream('lost', [event('B')], 'no_stream').catch((error: unknown) => error);
    expect(String(await failed)).to.match(/WAL sync failed/);
    const later = store.appendToStream('later', [event('C')], 'no_stream').catch((error: unknown) => error);
    expect(String(await later)).to.match(/WAL sync failed/);
    expect((await store.readAll('', 10)).map((e) => e.stream)).to.deep.equal(['kept']);
    expect(await store.headPosition()).to.equal(kept.position);
    const seen = firstValueFrom(store.subscribeToAll('').pipe(take(2), toArray()));
    expect(await settled(seen)).to.equal(false);
  });

  it('answers the appends posted before it closes, then closes', async () => {
    gate.hold();
    const a = store.appendToStream('a', [event('A')], 'no_stream');
    await until(() => gate.waited === 1);
    const b = store.appendToStream('b', [event('B')], 'no_stream');
    const closing = store.close();
    const late = store.appendToStream('c', [event('C')], 'no_stream').catch((error: unknown) => error);
    expect(String(await late)).to.match(/closed/);
    await sleep(20);
    gate.release();
    await Promise.all([a, b, closing]);
    store = new SqliteEventStore(file, { thread: true, threadGate: gate });
    expect((await store.readAll('', 10)).map((e) => e.stream)).to.deep.equal(['a', 'b']);
  });

  it("reads another connection's appends (another process): in $all, in order, and in its streams; chains after them", async () => {
    expect(await store.readStream('x')).to.deep.equal([]);
    const mine = await store.appendToStream('mine', [event('A')], 'no_stream');
    const other = new SqliteEventStore(file);
    try {
      const seen = firstValueFrom(store.subscribeToAll(mine.position).pipe(take(2), toArray()));
      await other.appendToStream('x', [event('X')], 'no_stream');
      await sleep(5);
      expect((await store.readStream('x')).map((e) => e.type)).to.deep.equal(['X']);
      const after = await store.appendToStream('x', [event('Y')], 0);
      expect(after.revision).to.equal(1);
      expect((await seen).map((e) => e.type)).to.deep.equal(['X', 'Y']);
      expect((await store.verifyChain()).verified).to.equal(true);
    } finally {
      await other.close();
    }
  });

  it('refuses the read side preview with the writer thread', () => {
    expect(() => store.onCommitted(() => {})).to.throw(/EVENT_STORE_THREAD=off/);
  });
});
