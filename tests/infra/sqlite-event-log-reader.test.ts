import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../../commands/ports.js';
import { SqliteEventLogReader } from '../../infra/sqlite/event-log-reader.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { toPosition } from '../../infra/sqlite/open.js';
import { tempDir } from '../support/temp.js';

const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } as const;
const event = (n: number): NewEvent => ({ id: randomUUID(), type: 'Counted', data: { n, nested: { list: [n] } }, metadata });

describe('SQLite event log reader (what a rebuild replays)', () => {
  let file: string;
  let store: SqliteEventStore;
  let reader: SqliteEventLogReader | null = null;
  beforeEach(async () => {
    file = `${tempDir()}/events.db`;
    store = new SqliteEventStore(file);
    await store.appendToStream('s-1', [event(1), event(2), event(3)], 'no_stream');
    await store.appendToStream('s-2', [event(4), event(5)], 'no_stream');
  });
  afterEach(async () => {
    await reader?.close();
    reader = null;
    await store.close();
  });

  it('reads the same pages of $all as the event store, in order, and the same head', async () => {
    reader = new SqliteEventLogReader(file);
    expect(await reader.headPosition()).to.equal(toPosition(5));
    expect(await reader.readAll('', 2)).to.deep.equal(await store.readAll('', 2));
    expect(await reader.readAll(toPosition(2), 10)).to.deep.equal(await store.readAll(toPosition(2), 10));
    expect(await reader.readAll(toPosition(5), 10)).to.deep.equal([]);
  });

  it('sees events appended after it opened once a read reaches its end', async () => {
    reader = new SqliteEventLogReader(file);
    expect((await reader.readAll('', 10)).map((e) => e.data)).to.have.length(5);
    await store.appendToStream('s-1', [event(6)], 2);
    const more = await reader.readAll(toPosition(5), 10);
    expect(more.map((e) => [e.position, e.stream, e.revision, e.data])).to.deep.equal([[toPosition(6), 's-1', 3, { n: 6, nested: { list: [6] } }]]);
    expect(await reader.headPosition()).to.equal(toPosition(6));
  });

  it('answers an empty head and no events for an empty log', async () => {
    const empty = `${tempDir()}/empty.db`;
    const other = new SqliteEventStore(empty);
    await other.close();
    reader = new SqliteEventLogReader(empty);
    expect(await reader.headPosition()).to.equal('');
    expect(await reader.readAll('', 10)).to.deep.equal([]);
  });
});
