import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';

/**
 * A MongoDB suite: with MONGO_URL set, `body` gets the URL and a fresh database name, dropped
 * afterwards; without it one test says why the suite is skipped.
 */
export function describeOnMongo(title: string, body: (url: string, database: string) => void): void {
  const url = process.env.MONGO_URL;
  describe(title, () => {
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
      body(url, database);
    } else
      it('runs when MONGO_URL is set', function () {
        console.log('      skipped: MONGO_URL is not set (docker compose up mongodb, then MONGO_URL=mongodb://127.0.0.1:27017)');
        this.skip();
      });
  });
}
