import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { firstValueFrom, take, toArray } from 'rxjs';
import { WrongExpectedRevision, type EventStore, type NewEvent } from '../../commands/ports.js';

const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } as const;
const event = (type: string, data: unknown = {}): NewEvent => ({ id: randomUUID(), type, data, metadata });

/** The EventStore contract: every adapter passes the same suite. */
export function eventStoreContract(open: () => Promise<EventStore>): void {
  let store: EventStore;
  let stream: string;

  beforeEach(async () => {
    store = await open();
    stream = `test-${randomUUID()}`;
  });
  afterEach(async () => store.close());

  it('appends to a new stream with no_stream and reads the events back in order', async () => {
    const result = await store.appendToStream(stream, [event('A', { n: 1 }), event('B', { n: 2 })], 'no_stream');
    expect(result.revision).to.equal(1);
    const events = await store.readStream(stream);
    expect(events.map((e) => [e.type, e.revision, e.data])).to.deep.equal([
      ['A', 0, { n: 1 }],
      ['B', 1, { n: 2 }],
    ]);
    expect(events[0]?.metadata).to.deep.equal(metadata);
    expect(events[1]?.position).to.equal(result.position);
  });

  it('reads an unknown stream as empty', async () => {
    expect(await store.readStream(stream)).to.deep.equal([]);
  });

  it('rejects no_stream when the stream exists', async () => {
    await store.appendToStream(stream, [event('A')], 'no_stream');
    const error = await store.appendToStream(stream, [event('B')], 'no_stream').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(WrongExpectedRevision);
    expect(await store.readStream(stream)).to.have.length(1);
  });

  it('rejects stream_exists when the stream does not exist', async () => {
    const error = await store.appendToStream(stream, [event('A')], 'stream_exists').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(WrongExpectedRevision);
    expect(await store.readStream(stream)).to.deep.equal([]);
  });

  it('accepts stream_exists and any on an existing stream', async () => {
    await store.appendToStream(stream, [event('A')], 'any');
    await store.appendToStream(stream, [event('B')], 'stream_exists');
    const result = await store.appendToStream(stream, [event('C')], 'any');
    expect(result.revision).to.equal(2);
  });

  it('enforces an exact expected revision and writes nothing on a mismatch', async () => {
    await store.appendToStream(stream, [event('A'), event('B')], 'no_stream');
    const stale = await store.appendToStream(stream, [event('C')], 0).catch((e: unknown) => e);
    expect(stale).to.be.instanceOf(WrongExpectedRevision);
    const ahead = await store.appendToStream(stream, [event('C')], 5).catch((e: unknown) => e);
    expect(ahead).to.be.instanceOf(WrongExpectedRevision);
    const ok = await store.appendToStream(stream, [event('C')], 1);
    expect(ok.revision).to.equal(2);
    expect((await store.readStream(stream)).map((e) => e.type)).to.deep.equal(['A', 'B', 'C']);
  });

  it('lets exactly one of two concurrent appends at the same revision win', async () => {
    await store.appendToStream(stream, [event('A')], 'no_stream');
    const results = await Promise.allSettled([store.appendToStream(stream, [event('B')], 0), store.appendToStream(stream, [event('C')], 0)]);
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).to.be.instanceOf(WrongExpectedRevision);
    expect(await store.readStream(stream)).to.have.length(2);
  });

  it('treats a retried append with the same event ids as done once', async () => {
    const events = [event('A'), event('B')];
    const first = await store.appendToStream(stream, events, 'no_stream');
    const again = await store.appendToStream(stream, events, 'no_stream');
    expect(again).to.deep.equal(first);
    expect(await store.readStream(stream)).to.have.length(2);
  });

  it('reads a stream from a revision', async () => {
    await store.appendToStream(stream, [event('A'), event('B'), event('C')], 'no_stream');
    expect((await store.readStream(stream, 1)).map((e) => e.type)).to.deep.equal(['B', 'C']);
  });

  it('orders all events globally and reads them after a position', async () => {
    const other = `${stream}-other`;
    const start = await store.headPosition();
    const a = await store.appendToStream(stream, [event('A')], 'no_stream');
    await store.appendToStream(other, [event('B')], 'no_stream');
    await store.appendToStream(stream, [event('C')], 0);
    const mine = (await store.readAll(start, 1000)).filter((e) => e.stream === stream || e.stream === other);
    expect(mine.map((e) => e.type)).to.deep.equal(['A', 'B', 'C']);
    const positions = mine.map((e) => e.position);
    expect([...positions].sort()).to.deep.equal(positions);
    const after = (await store.readAll(a.position, 1000)).filter((e) => e.stream === stream || e.stream === other);
    expect(after.map((e) => e.type)).to.deep.equal(['B', 'C']);
  });

  it('subscribes to all from a position and goes on with new events', async () => {
    const start = await store.headPosition();
    await store.appendToStream(stream, [event('A')], 'no_stream');
    const seen = firstValueFrom(store.subscribeToAll(start).pipe(take(3), toArray()));
    await store.appendToStream(stream, [event('B')], 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await store.appendToStream(stream, [event('C')], 1);
    const events = await seen;
    expect(events.map((e) => e.type)).to.deep.equal(['A', 'B', 'C']);
    expect(events.every((e) => e.stream === stream)).to.equal(true);
  });
}
