import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { WrongExpectedRevision, type NewEvent } from '../../commands/ports.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { tempDir } from '../support/temp.js';

const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } as const;
const event = (type: string): NewEvent => ({ id: randomUUID(), type, data: { type }, metadata });
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const types = (events: readonly { type: string }[]) => events.map((e) => e.type);

/** Reads past a stream's known head skip the query; other writers of the file are still seen (docs/decisions/0270). */
describe('SQLite event store: streams read past their head', () => {
  let file: string;
  let store: SqliteEventStore;
  let other: SqliteEventStore;
  beforeEach(() => {
    file = `${tempDir()}/events.db`;
    store = new SqliteEventStore(file);
    // Another writer of the same file, as another process would be.
    other = new SqliteEventStore(file);
  });
  afterEach(async () => {
    await store.close();
    await other.close();
  });

  it('answers what it appended and nothing past it, reading from any revision', async () => {
    expect(await store.readStream('s')).to.deep.equal([]);
    await store.appendToStream('s', [event('A'), event('B')], 'no_stream');
    expect(types(await store.readStream('s'))).to.deep.equal(['A', 'B']);
    expect(types(await store.readStream('s', 1))).to.deep.equal(['B']);
    expect(await store.readStream('s', 2)).to.deep.equal([]);
    await store.appendToStream('s', [event('C')], 1);
    expect(types(await store.readStream('s', 2))).to.deep.equal(['C']);
    expect(await store.readStream('s', 3)).to.deep.equal([]);
  });

  it('sees events another writer appended from the next turn of the event loop', async () => {
    await store.appendToStream('s', [event('A')], 'no_stream');
    expect(await store.readStream('s', 1)).to.deep.equal([]);
    expect(await store.readStream('t')).to.deep.equal([]);
    await nextTurn();
    await other.appendToStream('s', [event('B')], 0);
    await other.appendToStream('t', [event('X')], 'no_stream');
    await nextTurn();
    expect(types(await store.readStream('s', 1))).to.deep.equal(['B']);
    expect(types(await store.readStream('t'))).to.deep.equal(['X']);
  });

  it('after an append refused for a revision another writer took, reads that writer\'s events at once', async () => {
    await store.appendToStream('s', [event('A')], 'no_stream');
    expect(await store.readStream('s', 1)).to.deep.equal([]);
    await other.appendToStream('s', [event('B')], 0);
    // In the same turn, as a command's retry would be: the refusal told the store the head.
    let refused: unknown = null;
    await store.appendToStream('s', [event('C')], 0).catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(WrongExpectedRevision);
    expect(types(await store.readStream('s', 1))).to.deep.equal(['B']);
    await store.appendToStream('s', [event('C')], 1);
    expect(types(await store.readStream('s'))).to.deep.equal(['A', 'B', 'C']);
  });
});
