import { expect } from 'chai';
import { Database } from '../../infra/sqlite/driver.js';
import { randomUUID } from 'node:crypto';
import { WrongExpectedRevision, type NewEvent } from '../../commands/ports.js';
import { chainHash } from '../../infra/audit/hash-chain.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { toPosition } from '../../infra/sqlite/open.js';
import { tempDir } from '../support/temp.js';

const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } as const;
const event = (type: string, data: unknown = {}): NewEvent => ({ id: randomUUID(), type, data, metadata });

/** Five events in three appends, the store closed again: the file is ready to be tampered with. */
async function fiveEvents(file: string): Promise<void> {
  const store = new SqliteEventStore(file);
  await store.appendToStream('a-1', [event('A', { n: 1 }), event('A', { n: 2 })], 'no_stream');
  await store.appendToStream('b-1', [event('B', { n: 3 })], 'no_stream');
  await store.appendToStream('a-1', [event('A', { n: 4 }), event('A', { n: 5 })], 1);
  await store.close();
}

async function verify(file: string) {
  const store = new SqliteEventStore(file);
  try {
    return await store.verifyChain();
  } finally {
    await store.close();
  }
}

describe('SQLite event store: tamper-evident hash chain', () => {
  let file: string;
  beforeEach(() => {
    file = `${tempDir()}/events.db`;
  });

  it('verifies an untouched log and reports its head', async () => {
    await fiveEvents(file);
    const report = await verify(file);
    expect(report).to.deep.include({ verified: true, checked: 5, head_position: toPosition(5), first_break: null });
    expect(report.head_hash).to.match(/^[0-9a-f]{64}$/);
  });

  it('reports the first edited row with its position', async () => {
    await fiveEvents(file);
    const db = new Database(file);
    db.prepare(`UPDATE events SET data = '{"n":33}' WHERE position = 3`).run();
    db.close();
    const report = await verify(file);
    expect(report.verified).to.equal(false);
    expect(report.first_break).to.deep.equal({ position: toPosition(3), id: report.first_break?.id, stream: 'b-1', revision: 0, reason: 'hash_mismatch' });
    expect(report.checked).to.equal(3);
    expect(report.head_hash).to.equal(null);
  });

  it('reports an edited row whose own hash was recomputed at the row after it', async () => {
    await fiveEvents(file);
    const db = new Database(file);
    type Row = { id: string; stream: string; revision: number; type: string; data: string; metadata: string };
    const previous = db.prepare<[], { hash: string }>('SELECT hash FROM events WHERE position = 2').get()!.hash;
    const row = db.prepare<[], Row>('SELECT * FROM events WHERE position = 3').get()!;
    const forged = { ...row, data: '{"n":33}' };
    db.prepare('UPDATE events SET data = ?, hash = ? WHERE position = 3').run(forged.data, chainHash(previous, forged));
    db.close();
    const report = await verify(file);
    expect(report.first_break).to.include({ position: toPosition(4), reason: 'hash_mismatch' });
  });

  it('reports a removed row at the row after it', async () => {
    await fiveEvents(file);
    const db = new Database(file);
    db.prepare('DELETE FROM events WHERE position = 2').run();
    db.close();
    const report = await verify(file);
    expect(report.first_break).to.include({ position: toPosition(3), reason: 'hash_mismatch' });
  });

  it('reports a row whose hash was erased as missing_hash', async () => {
    await fiveEvents(file);
    const db = new Database(file);
    db.prepare('UPDATE events SET hash = NULL WHERE position = 4').run();
    db.close();
    const report = await verify(file);
    expect(report.first_break).to.include({ position: toPosition(4), reason: 'missing_hash' });
  });

  it('chains a log written before tamper evidence at open and keeps chaining new appends after it', async () => {
    const legacy = new Database(file);
    legacy.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, stream TEXT NOT NULL,
      revision INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, UNIQUE (stream, revision))`);
    const insert = legacy.prepare('INSERT INTO events (id, stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
    insert.run(randomUUID(), 'old-1', 0, 'Old', '{"n":1}', JSON.stringify(metadata));
    insert.run(randomUUID(), 'old-1', 1, 'Old', '{"n":2}', JSON.stringify(metadata));
    legacy.close();

    const store = new SqliteEventStore(file);
    expect((await store.readStream('old-1')).map((e) => e.data)).to.deep.equal([{ n: 1 }, { n: 2 }]);
    await store.appendToStream('old-1', [event('New')], 1);
    expect(await store.verifyChain()).to.deep.include({ verified: true, checked: 3 });
    await store.close();
  });

  it('keeps the chain whole after a refused append', async () => {
    const store = new SqliteEventStore(file);
    await store.appendToStream('s-1', [event('A')], 'no_stream');
    const refused = await store.appendToStream('s-1', [event('B'), event('C')], 'no_stream').catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(WrongExpectedRevision);
    await store.appendToStream('s-1', [event('D')], 0);
    expect(await store.verifyChain()).to.deep.include({ verified: true, checked: 2 });
    await store.close();
  });

  it('chains onto the rows another connection appended to the same file since its own last append', async () => {
    const first = new SqliteEventStore(file);
    const second = new SqliteEventStore(file);
    try {
      await first.appendToStream('a-1', [event('A', { n: 1 })], 'no_stream');
      await second.appendToStream('b-1', [event('B', { n: 2 }), event('B', { n: 3 })], 'no_stream');
      await first.appendToStream('a-1', [event('A', { n: 4 })], 0);
      await second.appendToStream('b-1', [event('B', { n: 5 })], 1);
      await first.appendToStream('c-1', [event('C', { n: 6 })], 'no_stream');
    } finally {
      await first.close();
      await second.close();
    }
    expect(await verify(file)).to.deep.include({ verified: true, checked: 6, first_break: null });
  });
});
