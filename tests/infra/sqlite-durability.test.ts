import { expect } from 'chai';
import { openSqlite } from '../../infra/sqlite/open.js';
import { tempDir } from '../support/temp.js';

describe('SQLite durability settings', () => {
  it('syncs every commit of a source-of-truth file (WAL, synchronous FULL)', () => {
    const db = openSqlite(`${tempDir()}/events.db`);
    expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
    expect(db.pragma('synchronous', { simple: true })).to.equal(2);
    db.close();
  });

  it('opens a derived file (read models, delivery index) with WAL and synchronous NORMAL', () => {
    const db = openSqlite(`${tempDir()}/read-models.db`, { derived: true });
    expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
    expect(db.pragma('synchronous', { simple: true })).to.equal(1);
    db.close();
  });
});
