import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoUsedSignatures } from '../../infra/mongodb/used-signatures.js';
import { SqliteUsedSignatures } from '../../infra/sqlite/used-signatures.js';
import { usedSignaturesContract } from '../contracts/used-signatures.contract.js';
import { tempDir } from '../support/temp.js';

describe('UsedSignatures contract: SQLite', () => {
  const file = `${tempDir()}/signatures.db`;
  usedSignaturesContract(async () => new SqliteUsedSignatures(file));
});

const url = process.env.MONGO_URL;

describe('UsedSignatures contract: MongoDB', () => {
  if (url) {
    const database = `cms_test_${randomUUID().slice(0, 8)}`;
    after(async () => {
      const client = new MongoClient(url);
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
    });
    usedSignaturesContract(async () => new MongoUsedSignatures(url, database));
  } else
    it('runs when MONGO_URL is set', function () {
      console.log('      skipped: MONGO_URL is not set (docker compose up mongodb, then MONGO_URL=mongodb://127.0.0.1:27017)');
      this.skip();
    });
});
