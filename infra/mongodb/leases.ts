import { MongoClient, MongoServerError, type Collection, type Db } from 'mongodb';
import type { Leases } from '../../projections/lease.js';

type LeaseDoc = { _id: string; holder: string; epoch: number; expires_at: Date };

const DUPLICATE_KEY = 11000;

/**
 * The leases on MongoDB (docs/decisions/0386): a document per projection and reactor with an
 * expiry. Taking one is a single conditional update (free, expired, or already ours); when the
 * document exists and is held, the upsert's insert fails on the `_id` and the answer is null.
 * Documents are never deleted (no TTL index): an epoch only grows.
 */
export class MongoLeases implements Leases {
  private readonly client: MongoClient;
  private readonly db: Db;

  constructor(url: string, database = 'cms') {
    this.client = new MongoClient(url);
    this.db = this.client.db(database);
  }

  private get leases(): Collection<LeaseDoc> {
    return this.db.collection<LeaseDoc>('leases');
  }

  async acquire(name: string, holder: string, ttlMs: number, now = Date.now()): Promise<number | null> {
    const expires_at = new Date(now + ttlMs);
    const own = await this.leases.findOneAndUpdate({ _id: name, holder, expires_at: { $gt: new Date(now) } }, { $set: { expires_at } }, { returnDocument: 'after' });
    if (own) return own.epoch;
    try {
      const taken = await this.leases.findOneAndUpdate(
        { _id: name, expires_at: { $lte: new Date(now) } },
        { $set: { holder, expires_at }, $inc: { epoch: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      return taken?.epoch ?? null;
    } catch (error) {
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) return null;
      throw error;
    }
  }

  async renew(name: string, holder: string, epoch: number, ttlMs: number, now = Date.now()): Promise<boolean> {
    const result = await this.leases.updateOne({ _id: name, holder, epoch }, { $set: { expires_at: new Date(now + ttlMs) } });
    return result.matchedCount === 1;
  }

  async raise(name: string, holder: string, epoch: number, above: number): Promise<number | null> {
    const result = await this.leases.updateOne({ _id: name, holder, epoch }, { $set: { epoch: above + 1 } });
    return result.matchedCount === 1 ? above + 1 : null;
  }

  async release(name: string, holder: string, epoch: number): Promise<void> {
    await this.leases.updateOne({ _id: name, holder, epoch }, { $set: { expires_at: new Date(0) } });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
