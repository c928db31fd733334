import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { firstValueFrom, take, toArray } from 'rxjs';
import { WrongExpectedRevision, type NewEvent } from '../../commands/ports.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { tempDir } from '../support/temp.js';

const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } as const;
const event = (type: string, data: unknown = {}): NewEvent => ({ id: randomUUID(), type, data, metadata });

describe('SQLite event store: group commit', () => {
  let file: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    file = `${tempDir()}/events.db`;
    store = new SqliteEventStore(file);
  });
  afterEach(async () => store.close());

  it('commits 50 concurrent appends to different streams in one transaction, each with its own position', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => store.appendToStream(`s-${i}`, [event('A', { i })], 'no_stream')));
    expect(store.stats).to.deep.equal({ commits: 1, appends: 50, syncs: 1 });
    const positions = results.map((r) => r.position);
    expect(new Set(positions).size).to.equal(50);
    expect([...positions].sort()).to.deep.equal(positions);
    const all = await store.readAll('', 1000);
    expect(all.map((e) => (e.data as { i: number }).i)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i));
  });

  it('lets exactly one of ten concurrent appends at the same revision of one stream win, in one commit', async () => {
    await store.appendToStream('one', [event('A')], 'no_stream');
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => store.appendToStream('one', [event('B', { i })], 0)));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).to.have.length(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).to.be.instanceOf(WrongExpectedRevision);
    expect((await store.readStream('one')).map((e) => e.type)).to.deep.equal(['A', 'B']);
    expect(store.stats.commits).to.equal(2);
  });

  it('applies appends to one stream queued together in order, each against its own expected revision', async () => {
    const [a, b, c] = await Promise.all([
      store.appendToStream('chain', [event('A')], 'no_stream'),
      store.appendToStream('chain', [event('B'), event('C')], 0),
      store.appendToStream('chain', [event('D')], 2),
    ]);
    expect([a.revision, b.revision, c.revision]).to.deep.equal([0, 2, 3]);
    expect((await store.readStream('chain')).map((e) => e.type)).to.deep.equal(['A', 'B', 'C', 'D']);
    expect(store.stats.commits).to.equal(1);
  });

  it('rolls back a refused append alone: the appends beside it in the group are stored', async () => {
    await store.appendToStream('taken', [event('A')], 'no_stream');
    const unstorable = { ...event('X'), data: { n: 1n } }; // JSON.stringify throws on a BigInt
    const results = await Promise.allSettled([
      store.appendToStream('first', [event('A')], 'no_stream'),
      store.appendToStream('taken', [event('B'), event('C')], 'no_stream'),
      store.appendToStream('odd', [event('A'), unstorable], 'no_stream'),
      store.appendToStream('last', [event('A')], 'no_stream'),
    ]);
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).to.be.instanceOf(WrongExpectedRevision);
    expect((results[2] as PromiseRejectedResult).reason).to.be.instanceOf(TypeError);
    expect(await store.readStream('taken')).to.have.length(1);
    expect(await store.readStream('odd')).to.deep.equal([]);
    expect(await store.readStream('first')).to.have.length(1);
    expect(await store.readStream('last')).to.have.length(1);
  });

  it('answers a retry with the same event ids in the same group with the first result, storing the events once', async () => {
    const events = [event('A'), event('B')];
    const [first, again] = await Promise.all([store.appendToStream('retry', events, 'no_stream'), store.appendToStream('retry', events, 'no_stream')]);
    expect(again).to.deep.equal(first);
    expect(await store.readStream('retry')).to.have.length(2);
    const later = await store.appendToStream('retry', events, 'no_stream');
    expect(later).to.deep.equal(first);
  });

  it('hands a subscriber every event of a group once, in global order', async () => {
    const seen = firstValueFrom(store.subscribeToAll('').pipe(take(20), toArray()));
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.appendToStream(`sub-${i % 4}`, [event('A', { i })], 'any')));
    const events = await seen;
    expect(events.map((e) => (e.data as { i: number }).i)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i));
    expect(events.map((e) => e.position)).to.deep.equal([...events.map((e) => e.position)].sort());
  });

  it('has every answered append on disk: a reopened store reads them all', async () => {
    await Promise.all(Array.from({ length: 30 }, (_, i) => store.appendToStream(`d-${i}`, [event('A')], 'no_stream')));
    await store.close();
    store = new SqliteEventStore(file);
    expect(await store.readAll('', 1000)).to.have.length(30);
  });

  it('rejects appends still queued when the store closes instead of leaving them hanging', async () => {
    // Caught at once: the refusal may come while `close` is awaited (else Node warns of a rejection handled late).
    const append = store.appendToStream('late', [event('A')], 'no_stream').catch((e: unknown) => e);
    await store.close();
    const error = await append;
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.match(/closed/);
  });
});
