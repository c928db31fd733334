import { expect } from 'chai';
import type { SqliteDb } from '../../infra/sqlite/open.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { tempDir } from '../support/temp.js';

/** The connections an adapter keeps (private fields, read here to check their settings). */
const connections = (adapter: object): SqliteDb[] =>
  Object.values(adapter).filter((value): value is SqliteDb => typeof value === 'object' && value !== null && typeof (value as SqliteDb).pragma === 'function');
/** The connection an adapter commits on. */
const writer = (adapter: object): SqliteDb => (adapter as { writer: SqliteDb }).writer;

describe('SQLite durability settings (docs/decisions/0101)', () => {
  it("writes the event store with WAL and synchronous NORMAL: the store syncs the WAL itself before answering (docs/decisions/0190)", async () => {
    const store = new SqliteEventStore(`${tempDir()}/events.db`);
    const dbs = connections(store);
    expect(dbs).to.have.length(1);
    for (const db of dbs) {
      expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
      expect(db.pragma('synchronous', { simple: true })).to.equal(1);
    }
    await store.appendToStream('s', [{ id: 'e-1', type: 'A', data: {}, metadata: { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } }], 'no_stream');
    expect(store.stats.syncs).to.equal(1);
    await store.close();
  });

  it('commits the read models and the delivery index with WAL and synchronous NORMAL', async () => {
    const dir = tempDir();
    for (const adapter of [new SqliteReadStore(`${dir}/read-models.db`), new SqliteSearchIndex(`${dir}/delivery.db`)]) {
      const db = writer(adapter);
      expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
      expect(db.pragma('synchronous', { simple: true })).to.equal(1);
      await adapter.close();
    }
  });
});
