import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { firstValueFrom } from 'rxjs';
import type { NewEvent } from '../../commands/ports.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { Database } from '../../infra/sqlite/driver.js';
import { WalFile } from '../../infra/sqlite/wal-sync.js';
import { tempDir } from '../support/temp.js';

const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } as const;
const event = (type: string, data: unknown = {}): NewEvent => ({ id: randomUUID(), type, data, metadata });

/** A WAL sync the test finishes by hand (each call waits for its own `release`), around the real one. */
class HeldSync {
  readonly calls: { release: () => Promise<void>; fail: (error: Error) => void }[] = [];
  constructor(private readonly wal: WalFile) {}
  readonly sync = () =>
    new Promise<void>((resolve, reject) => {
      this.calls.push({ release: () => this.wal.sync().then(resolve, reject), fail: reject });
    });
}

/** Lets the event loop run the queued group commit (setImmediate) and what follows it. */
const turns = async (n = 3) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Whether a promise has settled by now. */
const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await turns(1);
  return done;
};

describe('SQLite event store: the WAL synced off the event loop (docs/decisions/0190)', () => {
  let file: string;
  let held: HeldSync;
  let store: SqliteEventStore;

  beforeEach(() => {
    file = `${tempDir()}/events.db`;
    const wal = new WalFile(`${file}-wal`);
    held = new HeldSync(wal);
    store = new SqliteEventStore(file, { walSync: held.sync });
  });
  afterEach(async () => {
    for (const call of held.calls) call.release();
    await store.close();
  });

  it('answers an append only once the WAL sync after its commit has finished', async () => {
    const append = store.appendToStream('a', [event('A')], 'no_stream');
    await turns();
    expect(store.stats.commits).to.equal(1);
    expect(held.calls).to.have.length(1);
    expect(await settled(append)).to.equal(false);
    held.calls[0]?.release();
    expect((await append).revision).to.equal(0);
    expect(store.stats.syncs).to.equal(1);
  });

  it('shows readers of $all only synced events, while the command side reads its stream at once', async () => {
    const first = store.appendToStream('before', [event('A')], 'no_stream');
    await turns();
    held.calls[0]?.release();
    const synced = await first;
    const seen = firstValueFrom(store.subscribeToAll(synced.position));
    const unsynced = store.appendToStream('later', [event('B')], 'no_stream');
    await turns();
    expect(await store.readStream('later')).to.have.length(1);
    expect(await store.readAll('', 10)).to.have.length(1);
    expect(await store.headPosition()).to.equal(synced.position);
    expect(await settled(seen)).to.equal(false);
    held.calls[1]?.release();
    const answered = await unsynced;
    expect((await seen).position).to.equal(answered.position);
    expect(await store.readAll('', 10)).to.have.length(2);
    expect(await store.headPosition()).to.equal(answered.position);
  });

  it('starts a second sync for a group committed while one is in flight; a third group waits for one of them to end (0275)', async () => {
    const a = store.appendToStream('a', [event('A')], 'no_stream');
    await turns();
    const b = store.appendToStream('b', [event('B')], 'no_stream');
    await turns();
    expect(store.stats.commits).to.equal(2);
    expect(held.calls).to.have.length(2);
    const c = store.appendToStream('c', [event('C')], 'no_stream');
    const d = store.appendToStream('d', [event('D')], 'no_stream');
    await turns();
    expect(store.stats.commits).to.equal(3);
    expect(held.calls).to.have.length(2);
    // The later sync ends first: it started after both groups committed, so it answers both.
    held.calls[1]?.release();
    await Promise.all([a, b]);
    expect(await store.readAll('', 10)).to.have.length(2);
    expect(await settled(c)).to.equal(false);
    await turns();
    expect(held.calls).to.have.length(3);
    expect(await store.readAll('', 10)).to.have.length(2);
    const firstSynced = held.calls[0]?.release();
    await turns();
    expect(await settled(c)).to.equal(false);
    held.calls[2]?.release();
    await Promise.all([c, d]);
    expect(await store.readAll('', 10)).to.have.length(4);
    expect(held.calls).to.have.length(3);
    // The first sync's real fdatasync may still be running on a loaded machine: count it once it ends.
    await firstSynced;
    await turns();
    expect(store.stats.syncs).to.equal(3);
  });

  it('answers nothing and shows readers nothing of a group whose own sync has not ended, even when an earlier sync does', async () => {
    const a = store.appendToStream('a', [event('A')], 'no_stream');
    await turns();
    const b = store.appendToStream('b', [event('B')], 'no_stream');
    await turns();
    expect(held.calls).to.have.length(2);
    held.calls[0]?.release();
    await a;
    await turns();
    expect(await settled(b)).to.equal(false);
    expect(await store.readAll('', 10)).to.have.length(1);
    held.calls[1]?.release();
    await b;
    expect(await store.readAll('', 10)).to.have.length(2);
  });

  it('refuses the groups of a sync in flight beside one that failed', async () => {
    const a = store.appendToStream('a', [event('A')], 'no_stream');
    await turns();
    const b = store.appendToStream('b', [event('B')], 'no_stream');
    await turns();
    held.calls[0]?.fail(new Error('EIO: the disk failed'));
    const errors = await Promise.all([a, b].map((p) => p.then(() => null, (e: unknown) => (e as Error).message)));
    expect(errors).to.deep.equal(['EIO: the disk failed', 'EIO: the disk failed']);
    held.calls[1]?.release();
    await turns();
    expect(await store.readAll('', 10)).to.deep.equal([]);
  });

  it('refuses the callers of a group whose sync failed, and every later append, and shows readers none of it', async () => {
    const append = store.appendToStream('a', [event('A')], 'no_stream');
    await turns();
    held.calls[0]?.fail(new Error('EIO: the disk failed'));
    const error = await append.catch((e: unknown) => e);
    expect((error as Error).message).to.equal('EIO: the disk failed');
    const later = await store.appendToStream('b', [event('B')], 'no_stream').catch((e: unknown) => e);
    expect((later as Error).message).to.equal('EIO: the disk failed');
    expect(await store.readAll('', 10)).to.deep.equal([]);
    expect(await store.headPosition()).to.equal('');
  });

  it('answers the callers of committed groups before it closes', async () => {
    const append = store.appendToStream('a', [event('A')], 'no_stream');
    await turns();
    const closing = store.close();
    held.calls[0]?.release();
    await closing;
    expect((await append).revision).to.equal(0);
  });
});

describe('WalFile', () => {
  it('syncs a WAL the store wrote, and opens nothing when there is no WAL yet', async () => {
    const file = `${tempDir()}/events.db`;
    const wal = new WalFile(`${file}-wal`);
    wal.syncNow();
    const store = new SqliteEventStore(file);
    await store.appendToStream('a', [event('A')], 'no_stream');
    await wal.sync();
    wal.close();
    expect(store.stats.syncs).to.equal(1);
    await store.close();
    const again = new SqliteEventStore(file);
    expect(await again.readAll('', 10)).to.have.length(1);
    await again.close();
  });
});

describe('WalFile kept open (docs/decisions/0323)', () => {
  it('syncs with one descriptor across checkpoints that truncate the WAL in place', async () => {
    const file = `${tempDir()}/events.db`;
    const store = new SqliteEventStore(file);
    await store.appendToStream('a', [event('A')], 'no_stream');
    const wal = new WalFile(`${file}-wal`);
    await wal.sync();
    const checkpointer = new Database(file);
    for (let i = 0; i < 3; i++) {
      checkpointer.pragma('wal_checkpoint(TRUNCATE)');
      await store.appendToStream('a', [event(`B${i}`)], i);
      expect(statSync(`${file}-wal`).size).to.be.greaterThan(0);
      await wal.sync();
    }
    checkpointer.close();
    wal.close();
    await store.close();
    const again = new SqliteEventStore(file);
    expect((await again.readAll('', 10)).map((e) => e.type)).to.deep.equal(['A', 'B0', 'B1', 'B2']);
    await again.close();
  });
});

describe('SQLite event store: the metadata text of an append (docs/decisions/0323)', () => {
  it('stores each event with its own metadata, whether the append\'s events share one object or not', async () => {
    const store = new SqliteEventStore(`${tempDir()}/events.db`);
    const other = { ...metadata, timestamp: '2026-01-02T00:00:00Z' };
    const shared = { ...metadata, actor: { key: 'u1' } };
    await store.appendToStream('a', [
      { id: randomUUID(), type: 'A', data: {}, metadata: shared },
      { id: randomUUID(), type: 'B', data: {}, metadata: shared },
      { id: randomUUID(), type: 'C', data: {}, metadata: other },
      { id: randomUUID(), type: 'D', data: {}, metadata: shared },
    ], 'no_stream');
    shared.actor.key = 'changed after the append';
    const read = await store.readAll('', 10);
    expect(read.map((e) => e.metadata)).to.deep.equal([
      { ...metadata, actor: { key: 'u1' } },
      { ...metadata, actor: { key: 'u1' } },
      other,
      { ...metadata, actor: { key: 'u1' } },
    ]);
    await store.close();
  });
});
