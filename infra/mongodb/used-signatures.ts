import { MongoClient, MongoServerError, type Collection } from 'mongodb';
import type { UsedSignatures } from '../../read-api/auth/secure-signature.js';

type Used = { _id: string; expires_at: Date };

/**
 * Used Secure signatures in a MongoDB collection (docs/decisions/0335), removed by a TTL index
 * once expired. One upsert per use, matching only an expired record: for a record that has not
 * expired the upsert tries to insert its `_id` again and the unique index refuses it (a replay).
 */
export class MongoUsedSignatures implements UsedSignatures {
  private readonly client: MongoClient;
  private readonly used: Collection<Used>;
  private ready: Promise<unknown> | undefined;

  constructor(url: string, database = 'cms') {
    this.client = new MongoClient(url);
    this.used = this.client.db(database).collection<Used>('used_signatures');
  }

  async firstUse(id: string, expiresAt: number, now: number): Promise<boolean> {
    this.ready ??= this.used.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 });
    await this.ready;
    try {
      await this.used.updateOne({ _id: id, expires_at: { $lte: new Date(now) } }, { $set: { expires_at: new Date(expiresAt) } }, { upsert: true });
      return true;
    } catch (error) {
      if (error instanceof MongoServerError && error.code === 11000) return false;
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
