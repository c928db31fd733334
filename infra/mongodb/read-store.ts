import { MongoClient, MongoServerError, type ClientSession, type Collection, type Db } from 'mongodb';
import type { Position } from '../../commands/ports.js';
import type { Doc, Filter, FindOptions, ReadCollection, ReadStore, ReadStoreTx } from '../../projections/ports.js';
import { Mutex } from '../mutex.js';
import { LeaseLost } from '../../projections/lease.js';
import { checkPath, toMongoFilter, toMongoSort } from './filter.js';

const NAME = /^[a-z_][a-z0-9_]*$/;

const collectionName = (name: string): string => {
  if (!NAME.test(name)) throw new Error(`invalid collection name: ${name}`);
  return `rm_${name}`;
};

type Checkpoint = { _id: string; position: string; epoch?: number };

const DUPLICATE_KEY = 11000;

/** One read-model collection; inside a transactional unit of work every call carries the session. */
class MongoCollection<T extends Doc> implements ReadCollection<T> {
  constructor(
    private readonly col: Collection<Doc>,
    private readonly session?: ClientSession,
  ) {}

  async get(id: string): Promise<T | null> {
    return (await this.col.findOne({ _id: id }, { session: this.session })) as T | null;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.col.find(toMongoFilter(filter), { session: this.session }).sort(toMongoSort(options.sort));
    if (options.skip) cursor = cursor.skip(Math.max(0, Math.floor(options.skip)));
    if (options.limit !== undefined) {
      const limit = Math.max(0, Math.floor(options.limit));
      // MongoDB reads limit 0 as "no limit".
      if (limit === 0) return [];
      cursor = cursor.limit(limit);
    }
    return (await cursor.toArray()) as T[];
  }

  async count(filter: Filter = {}): Promise<number> {
    return this.col.countDocuments(toMongoFilter(filter), { session: this.session });
  }

  async upsert(doc: T): Promise<void> {
    await this.col.replaceOne({ _id: doc._id }, doc, { upsert: true, session: this.session });
  }

  async delete(id: string): Promise<void> {
    await this.col.deleteOne({ _id: id }, { session: this.session });
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.col.deleteMany(toMongoFilter(filter), { session: this.session })).deletedCount;
  }
}

/**
 * The production read store: a MongoDB collection per read model (`rm_` prefix) and a
 * `checkpoints` collection. A standalone server has no transactions: a unit of work runs its
 * (idempotent, position-ordered) writes directly, one at a time, and writes the checkpoint last,
 * so a crash between them replays the batch. On a replica set it is one session transaction.
 */
export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly mutex = new Mutex();
  private transactions: Promise<boolean> | undefined;
  /** The lease epoch each fenced consumer writes its checkpoint with (docs/decisions/0386). */
  private readonly epochs = new Map<string, number>();

  constructor(url: string, database = 'cms') {
    this.client = new MongoClient(url);
    this.db = this.client.db(database);
  }

  private col<T extends Doc>(name: string, session?: ClientSession): ReadCollection<T> {
    return new MongoCollection<T>(this.db.collection<Doc>(collectionName(name)), session);
  }

  private checkpoints(): Collection<Checkpoint> {
    return this.db.collection<Checkpoint>('checkpoints');
  }

  /** Transactions need a replica set member or a mongos. */
  private supportsTransactions(): Promise<boolean> {
    this.transactions ??= this.db
      .command({ hello: 1 })
      .then((hello) => typeof hello.setName === 'string' || hello.msg === 'isdbgrid');
    return this.transactions;
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return this.col<T>(name);
  }

  async ensureIndex(collection: string, fields: readonly string[]): Promise<void> {
    const keys = Object.fromEntries(fields.map((field) => [checkPath(field), 1] as const));
    await this.db.collection(collectionName(collection)).createIndex(keys);
  }

  async unitOfWork(consumer: string, position: Position, work: (tx: ReadStoreTx) => Promise<void>): Promise<void> {
    await this.mutex.run(async () => {
      if (!(await this.supportsTransactions())) {
        await work({ collection: <T extends Doc>(name: string) => this.col<T>(name) });
        await this.saveCheckpoint(consumer, position);
        return;
      }
      await this.client.withSession((session) =>
        session.withTransaction(async () => {
          await work({ collection: <T extends Doc>(name: string) => this.col<T>(name, session) });
          await this.saveCheckpoint(consumer, position, session);
        }),
      );
    });
  }

  /** Fenced by the epoch this store raised for `consumer`, if any (docs/decisions/0386): refused once a later one did. */
  private async saveCheckpoint(consumer: string, position: Position, session?: ClientSession): Promise<void> {
    const epoch = this.epochs.get(consumer);
    if (epoch === undefined) {
      await this.checkpoints().updateOne({ _id: consumer }, { $set: { position } }, { upsert: true, session });
      return;
    }
    const written = await this.checkpoints().updateOne({ _id: consumer, epoch }, { $set: { position } }, { session });
    if (written.matchedCount !== 1) throw new LeaseLost(consumer, epoch);
  }

  async fence(consumer: string, epoch: number): Promise<void> {
    try {
      await this.checkpoints().updateOne(
        { _id: consumer, $or: [{ epoch: { $exists: false } }, { epoch: { $lte: epoch } }] },
        { $set: { epoch }, $setOnInsert: { position: '' } },
        { upsert: true },
      );
    } catch (error) {
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) throw new LeaseLost(consumer, epoch, (await this.checkpoints().findOne({ _id: consumer }))?.epoch ?? null);
      throw error;
    }
    this.epochs.set(consumer, epoch);
  }

  async checkpoint(consumer: string): Promise<Position> {
    return (await this.checkpoints().findOne({ _id: consumer }))?.position ?? '';
  }

  async close(): Promise<void> {
    await this.mutex.run(() => this.client.close());
  }
}
