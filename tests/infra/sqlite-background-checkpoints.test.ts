import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { openSqlite, type SqliteDb } from '../../infra/sqlite/open.js';
import { SHADOW } from '../../infra/sqlite/read-model-swap.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { tempDir } from '../support/temp.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Frames in the WAL and frames already copied into the database file, asked of a new connection. */
function walState(file: string): { log: number; checkpointed: number } {
  const db = openSqlite(file);
  try {
    // A FULL checkpoint would copy the rest; PASSIVE with nothing left reports what is there.
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    return { log: row?.log ?? -1, checkpointed: row?.checkpointed ?? -1 };
  } finally {
    db.close();
  }
}

/** Waits until `check` holds, up to `ms`. */
async function eventually(check: () => boolean, ms = 5_000): Promise<boolean> {
  for (const start = Date.now(); Date.now() - start < ms; await sleep(50)) if (check()) return true;
  return check();
}

describe('SQLite WAL checkpoints on a background thread (docs/decisions/0191)', () => {
  it('copies what the read store committed into the database file without a commit of the store doing it', async () => {
    const file = `${tempDir()}/read-models.db`;
    const store = new SqliteReadStore(file);
    const writer = (store as unknown as { writer: SqliteDb }).writer;
    expect(writer.pragma('wal_autocheckpoint', { simple: true })).to.equal(20_000);
    const before = statSync(file).size;
    for (let batch = 0; batch < 20; batch++) {
      await store.unitOfWork('c', String(batch).padStart(20, '0'), async (tx) => {
        for (let i = 0; i < 50; i++) await tx.collection('docs').upsert({ _id: `${batch}-${i}`, text: 'x'.repeat(2_000) });
      });
    }
    // Under SQLite's own mark (20,000 pages) no commit checkpointed: the thread did.
    expect(await eventually(() => statSync(file).size > before + 1_000_000)).to.equal(true);
    // Asked while the thread checkpoints, SQLite answers busy (-1): asked again.
    expect(await eventually(() => {
      const wal = walState(file);
      return wal.log > 0 && wal.checkpointed === wal.log;
    })).to.equal(true);
    expect(await store.collection('docs').count()).to.equal(1_000);
    await store.close();
  });

  it('lets go of each file before its store closes: the last connection removes the WAL', async () => {
    const dir = tempDir();
    const events = new SqliteEventStore(`${dir}/events.db`);
    const reads = new SqliteReadStore(`${dir}/read-models.db`);
    const index = new SqliteSearchIndex(`${dir}/delivery.db`);
    await events.appendToStream('s', [{ id: 'e-1', type: 'A', data: {}, metadata: { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } }], 'no_stream');
    await reads.unitOfWork('c', '1', async (tx) => tx.collection('docs').upsert({ _id: 'a' }));
    await sleep(300);
    await Promise.all([events.close(), reads.close(), index.close()]);
    for (const name of ['events.db', 'read-models.db', 'delivery.db']) expect(existsSync(`${dir}/${name}-wal`), name).to.equal(false);
    const again = new SqliteEventStore(`${dir}/events.db`);
    expect(await again.readAll('', 10)).to.have.length(1);
    await again.close();
  });

  it("starts no thread for a rebuild's files: the WAL stays until the last connection closes, which copies it in (docs/decisions/0295)", async () => {
    const dir = tempDir();
    const live = new SqliteReadStore(`${dir}/read-models.db`);
    await live.close();
    const shadow = new SqliteReadStore(`${dir}/read-models.db`, SHADOW);
    const index = new SqliteSearchIndex(`${dir}/delivery.db`, true);
    expect((shadow as unknown as { writer: SqliteDb }).writer.pragma('wal_autocheckpoint', { simple: true })).to.equal(20_000);
    const before = statSync(`${dir}/read-models.db`).size;
    await shadow.unitOfWork('c', '1', async (tx) => {
      for (let i = 0; i < 200; i++) await tx.collection('docs').upsert({ _id: `d-${i}`, text: 'x'.repeat(2_000) });
    });
    await index.unitOfWork('c', '1', async (tx) => tx.setMeta('m', { a: 1 }));
    // A registered file is checkpointed within the thread's interval (1 s); these are not.
    await sleep(1_300);
    expect(statSync(`${dir}/read-models.db`).size).to.equal(before);
    await Promise.all([shadow.close(), index.close()]);
    for (const name of ['read-models.db', 'delivery.db']) expect(existsSync(`${dir}/${name}-wal`), name).to.equal(false);
    expect(statSync(`${dir}/read-models.db`).size).to.be.greaterThan(before + 400_000);
    const again = new SqliteReadStore(`${dir}/read-models.db`, SHADOW);
    expect(await again.collection('docs').count()).to.equal(200);
    await again.close();
  });

  it('never keeps the process alive: a program that opened and closed a store exits by itself', async () => {
    const dir = await tempDir();
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'tests/support/event-store-open-close.ts', dir], { encoding: 'utf8', timeout: 30_000 });
    expect(child.stdout).to.equal('closed\n');
    expect(child.signal, 'the process had to be killed: something kept it alive').to.equal(null);
    expect(child.status).to.equal(0);
  });
});
