import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { bulkLoadDelivery } from '../../infra/sqlite/delivery-bulk-load.js';
import { openSqlite, setJournal } from '../../infra/sqlite/open.js';
import { ScratchReadStore } from '../../infra/sqlite/scratch-read-store.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { tempDir } from '../support/temp.js';

describe("a rebuild's throwaway files: no WAL and no checkpoint for them (docs/decisions/0295)", () => {
  it('refuses a journal mode SQLite does not take: OFF is kept as WAL on a defensive connection', () => {
    const db = openSqlite(`${tempDir()}/x.db`);
    try {
      expect(() => setJournal(db, 'off' as 'memory')).to.throw(/kept journal mode wal instead of off/);
      setJournal(db, 'memory');
      expect(db.pragma('journal_mode', { simple: true })).to.equal('memory');
    } finally {
      db.close();
    }
  });

  it('writes a scratch read-model file with its journal in memory: no WAL file while it is written', async () => {
    const file = `${tempDir()}/read-models.rebuilding.db`;
    const store = new ScratchReadStore(file);
    const docs = new Map([['notes', new Map(Array.from({ length: 500 }, (_, i) => [`n${i}`, { _id: `n${i}`, text: 'x'.repeat(1_000) }] as const))]]);
    await store.writeBatch({ removals: [], docs, positions: new Map([['notes-consumer', '00000000000000000001']]), fresh: true });
    expect(existsSync(`${file}-wal`)).to.equal(false);
    expect(await store.collection('notes').get('n499')).to.deep.include({ _id: 'n499' });
    await store.close();
  });

  it('bulk-loads a delivery file and leaves it in WAL mode, as the service opens it', async () => {
    const file = `${tempDir()}/delivery.rebuilding.db`;
    await new SqliteSearchIndex(file, true).close();
    const doc = { env: 'e', folder: 'f', key: 'k', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', owner: null, data: { title: 'x' } };
    bulkLoadDelivery(file, [doc as never], new Map([['delivery', '00000000000000000001']]));
    const db = openSqlite(file);
    try {
      expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
      expect(db.prepare('SELECT count(*) AS n FROM docs').get()).to.deep.equal({ n: 1 });
    } finally {
      db.close();
    }
  });
});
