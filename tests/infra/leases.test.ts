import { expect } from 'chai';
import { statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { MongoLeases } from '../../infra/mongodb/leases.js';
import { MongoReadStore } from '../../infra/mongodb/read-store.js';
import { deadHere, SqliteLeases } from '../../infra/sqlite/leases.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { openSqlite } from '../../infra/sqlite/open.js';
import { leasesContract } from '../contracts/leases.contract.js';
import { describeOnMongo } from '../support/mongo.js';
import { tempDir } from '../support/temp.js';

describe('Leases contract: SQLite', () => {
  const file = join(tempDir(), 'read-models.db');
  leasesContract(async () => ({ leases: new SqliteLeases(file), store: new SqliteReadStore(file) }));

  it('takes over at once the lease of a holder on this host whose process is gone', async () => {
    const leases = new SqliteLeases(file);
    try {
      // A pid far above any this test machine hands out.
      const gone = `${hostname()}/4194000/x`;
      expect(deadHere(gone)).to.equal(true);
      expect(deadHere(`${hostname()}/${process.ppid}/x`), 'a live process').to.equal(false);
      expect(deadHere(`elsewhere/4194000/x`), 'another host: not known dead').to.equal(false);
      expect(await leases.acquire('dead-holder', gone, 60_000)).to.equal(1);
      expect(await leases.acquire('dead-holder', `${hostname()}/${process.pid}/y`, 60_000)).to.equal(2);
    } finally {
      await leases.close();
    }
  });

  it("answers a try while another connection holds the file's write lock past the busy timeout as not taken (tried again later), and takes it after", async () => {
    const leases = new SqliteLeases(file);
    const other = openSqlite(file);
    try {
      other.exec('BEGIN IMMEDIATE');
      expect(await leases.acquire('locked', 'h/1/a', 60_000)).to.equal(null);
      other.exec('ROLLBACK');
      expect(await leases.acquire('locked', 'h/1/a', 60_000)).to.equal(1);
    } finally {
      other.close();
      await leases.close();
    }
  });

  it("never checkpoints the file's WAL itself when it renews: the read store's writer leaves that to the checkpoint thread, and a renewal would copy and sync its pages on the event loop", async () => {
    const own = join(tempDir(), 'read-models.db');
    const writer = openSqlite(own);
    const leases = new SqliteLeases(own);
    try {
      writer.pragma('wal_autocheckpoint = 0');
      writer.exec('CREATE TABLE pages (body BLOB)');
      const insert = writer.prepare('INSERT INTO pages (body) VALUES (randomblob(4000))');
      writer.transaction(() => {
        for (let i = 0; i < 1_500; i++) insert.run();
      })();
      expect(await leases.acquire('renewed', 'h/1/a', 60_000)).to.equal(1);
      expect(await leases.renew('renewed', 'h/1/a', 1, 60_000)).to.equal(true);
      // Checkpointed, the 1,500 pages of 4 KB would be in the database file; left to the thread, they are still in the WAL alone.
      expect(statSync(own).size).to.be.lessThan(1_000_000);
      expect(statSync(`${own}-wal`).size).to.be.greaterThan(6_000_000);
    } finally {
      await leases.close();
      writer.close();
    }
  });
});

describeOnMongo('Leases contract: MongoDB', (url, database) => leasesContract(async () => ({ leases: new MongoLeases(url, database), store: new MongoReadStore(url, database) })));
