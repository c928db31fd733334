import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { NewEvent, StoredEvent } from '../../commands/ports.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { tempDir } from '../support/temp.js';

const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } as const;
const event = (type: string, data: unknown = {}): NewEvent => ({ id: randomUUID(), type, data, metadata });

/** Counts the store's reads of `$all` pages (the query a handed-over page does without). */
function countPageReads(store: SqliteEventStore): { readonly count: () => number } {
  const statement = (store as unknown as { statements: { all: { all: (...args: unknown[]) => unknown[] } } }).statements.all;
  const all = statement.all.bind(statement);
  let reads = 0;
  statement.all = (...args: unknown[]) => (reads++, all(...args));
  return { count: () => reads };
}

/** Collects what a subscriber of `$all` receives. */
function follow(store: SqliteEventStore): { readonly events: StoredEvent[]; until(n: number, ms?: number): Promise<void>; stop(): void } {
  const events: StoredEvent[] = [];
  const subscription = store.subscribeToAll('').subscribe((e) => events.push(e));
  return {
    events,
    async until(n, ms = 3000) {
      const deadline = Date.now() + ms;
      while (events.length < n) {
        if (Date.now() > deadline) throw new Error(`${events.length} of ${n} events within ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    stop: () => subscription.unsubscribe(),
  };
}

/** docs/decisions/0314 (first tried in 0302): `$all` readers get a synced group's events from the rows its commit inserted. */
describe('SQLite event store: the rows of a group handed to `$all` readers', () => {
  let file: string;
  const open: SqliteEventStore[] = [];
  const store = (options?: ConstructorParameters<typeof SqliteEventStore>[1]): SqliteEventStore => {
    const s = new SqliteEventStore(file, options);
    open.push(s);
    return s;
  };
  beforeEach(() => {
    file = `${tempDir()}/events.db`;
  });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });

  it('hands every subscriber the events exactly as a read of the file gives them, without reading them back', async () => {
    const events = store();
    const followers = [follow(events), follow(events)];
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reads = countPageReads(events);
    await Promise.all(Array.from({ length: 40 }, (_, i) => events.appendToStream(`s-${i % 5}`, [event('A', { i, nested: { list: [1, 'two'], none: null } }), event('B')], 'any')));
    for (const f of followers) await f.until(80);
    expect(reads.count(), 'pages read from the file').to.equal(0);
    const stored = await events.readAll('', 1000);
    for (const f of followers) expect(f.events).to.deep.equal(stored);
    for (const f of followers) f.stop();
  });

  it('hands over none of the rows of an append refused in its group (rolled back to its savepoint)', async () => {
    const events = store();
    const f = follow(events);
    const stored = event('A', { n: 0 });
    await events.appendToStream('before', [stored], 'no_stream');
    await f.until(1);
    const reads = countPageReads(events);
    // The second event reuses a stored id: its insert fails on the unique index after the first event's went in.
    const results = await Promise.allSettled([
      events.appendToStream('g', [event('A', { n: 1 }), event('B', { n: 2 })], 'no_stream'),
      events.appendToStream('clash', [event('A', { n: -1 }), { ...event('B'), id: stored.id }], 'no_stream'),
      events.appendToStream('h', [event('A', { n: 3 })], 'no_stream'),
    ]);
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(events.stats.commits).to.equal(2);
    await f.until(4);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(f.events.map((e) => (e.data as { n: number }).n)).to.deep.equal([0, 1, 2, 3]);
    expect(reads.count(), 'pages read from the file').to.equal(0);
    expect(f.events).to.deep.equal(await events.readAll('', 10));
    f.stop();
  });

  it('reads the page from the file when another connection appended before the group', async () => {
    const events = store();
    const other = store();
    const f = follow(events);
    await events.appendToStream('mine', [event('A', { n: 1 })], 'no_stream');
    await f.until(1);
    await other.appendToStream('theirs', [event('A', { n: 2 })], 'no_stream');
    await events.appendToStream('mine', [event('A', { n: 3 })], 0);
    await f.until(3);
    expect(f.events.map((e) => (e.data as { n: number }).n)).to.deep.equal([1, 2, 3]);
    expect(f.events).to.deep.equal(await events.readAll('', 10));
    f.stop();
  });

  it('reads the page from the file when another connection appended after the group, before its sync ended', async () => {
    const releases: (() => void)[] = [];
    const events = store({ walSync: () => new Promise<void>((resolve) => releases.push(resolve)) });
    const other = store();
    const f = follow(events);
    const append = events.appendToStream('mine', [event('A', { n: 1 }), event('A', { n: 2 })], 'no_stream');
    while (releases.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    await other.appendToStream('theirs', [event('A', { n: 3 })], 'no_stream');
    releases.shift()!();
    await append;
    // Well before the poll that would find it otherwise (a second).
    await f.until(3, 500);
    expect(f.events.map((e) => (e.data as { n: number }).n)).to.deep.equal([1, 2, 3]);
    f.stop();
  });
});
