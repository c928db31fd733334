import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoReadStore } from '../../infra/mongodb/read-store.js';
import { readStoreContract } from '../contracts/read-store.contract.js';

const url = process.env.MONGO_URL;

// Standalone MongoDB has no transactions, so transactionalReadStoreContract does not apply.
describe('ReadStore contract: MongoDB', () => {
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
    readStoreContract(async () => new MongoReadStore(url, database));
  } else
    it('runs when MONGO_URL is set', function () {
      console.log('      skipped: MONGO_URL is not set (docker compose up mongodb, then MONGO_URL=mongodb://127.0.0.1:27017)');
      this.skip();
    });
});
