import { expect } from 'chai';
import { DataVersionLook } from '../../infra/sqlite/data-version-look.js';
import { openSqlite, type SqliteDb } from '../../infra/sqlite/open.js';
import { tempDir } from '../support/temp.js';

// One read of data_version for the two looks of a search (docs/decisions/0280): lent once, for a millisecond.
describe('SQLite data_version look', () => {
  let reader: SqliteDb;
  let writer: SqliteDb;
  let look: DataVersionLook;

  beforeEach(() => {
    const file = `${tempDir()}/look.db`;
    writer = openSqlite(file);
    writer.exec('CREATE TABLE t (x INTEGER)');
    reader = openSqlite(file);
    // A long window, so that a loaded machine does not make the first case flaky; the second sets its own.
    look = new DataVersionLook(reader, 10_000);
  });
  afterEach(() => {
    reader.close();
    writer.close();
  });

  const commit = () => writer.exec('INSERT INTO t VALUES (1)');
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('lends the value it read to the next borrow only, which sees no commit in between', () => {
    const first = look.read();
    commit();
    expect(look.borrow(), 'the lent value').to.equal(first);
    expect(look.borrow(), 'read again').to.not.equal(first);
  });

  it('lends nothing older than its window (a millisecond in the service)', async () => {
    look = new DataVersionLook(reader, 1);
    const first = look.read();
    await pause(5);
    commit();
    expect(look.borrow()).to.not.equal(first);
  });

  it('lends nothing from a peek, and a borrow without a read before reads the value', () => {
    const first = look.peek();
    commit();
    const second = look.borrow();
    expect(second).to.not.equal(first);
    commit();
    expect(look.borrow()).to.not.equal(second);
  });
});
