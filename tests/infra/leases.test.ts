import { expect } from 'chai';
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
});

describeOnMongo('Leases contract: MongoDB', (url, database) => leasesContract(async () => ({ leases: new MongoLeases(url, database), store: new MongoReadStore(url, database) })));
