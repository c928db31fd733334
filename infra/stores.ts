import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventStore } from '../commands/ports.js';
import type { ReadStore, SearchIndex } from '../projections/ports.js';
import type { UsedSignatures } from '../read-api/auth/secure-signature.js';
import type { Config } from './config.js';
import { adoptRebuiltDelivery } from './sqlite/delivery-adopt.js';
import { SqliteEventStore } from './sqlite/event-store.js';
import { SqliteReadStore } from './sqlite/read-store.js';
import { SqliteSearchIndex } from './sqlite/search-index.js';
import { SqliteUsedSignatures } from './sqlite/used-signatures.js';
import { SqliteLeases } from './sqlite/leases.js';
import type { Leases } from '../projections/lease.js';

export type Stores = {
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly searchIndex: SearchIndex;
  /** The embedded read store's file, which the read side's thread opens too (docs/decisions/0307); null on MongoDB. */
  readonly readModelFile: string | null;
  /** Used Secure signatures, seen by every process on the same data (docs/decisions/0335). */
  readonly usedSignatures: UsedSignatures;
  /** One runner per projection and reactor across processes (docs/decisions/0386): beside the read models. */
  readonly leases: Leases;
};

/**
 * Each port on its production engine when its URL is configured, else on SQLite files in the
 * data directory. The production drivers are imported only when configured: loading them
 * costs more than half a second of start-up that the embedded default does not need.
 */
export async function openStores(config: Config): Promise<Stores> {
  mkdirSync(config.dataDir, { recursive: true });
  const eventStore = config.eventStoreUrl
    ? new (await import('./eventstoredb/event-store.js')).EventStoreDbEventStore(config.eventStoreUrl)
    : new SqliteEventStore(join(config.dataDir, 'events.db'));
  const readModelFile = config.mongoUrl ? null : join(config.dataDir, 'read-models.db');
  const readStore = readModelFile === null ? new (await import('./mongodb/read-store.js')).MongoReadStore(config.mongoUrl!) : new SqliteReadStore(readModelFile);
  const searchIndex = config.openSearchUrl
    ? new (await import('./opensearch/search-index.js')).OpenSearchSearchIndex(config.openSearchUrl, { queryTimeoutMs: config.queryTimeoutMs })
    : new SqliteSearchIndex(adoptRebuiltDelivery(join(config.dataDir, 'delivery.db')), false, config.queryTimeoutMs);
  const usedSignatures = config.mongoUrl
    ? new (await import('./mongodb/used-signatures.js')).MongoUsedSignatures(config.mongoUrl)
    : new SqliteUsedSignatures(join(config.dataDir, 'signatures.db'));
  const leases = readModelFile === null ? new (await import('./mongodb/leases.js')).MongoLeases(config.mongoUrl!) : new SqliteLeases(readModelFile);
  return { eventStore, readStore, searchIndex, readModelFile, usedSignatures, leases };
}

export async function closeStores(stores: Stores): Promise<void> {
  await Promise.allSettled([stores.eventStore.close(), stores.readStore.close(), stores.searchIndex.close(), stores.usedSignatures.close(), stores.leases.close()]);
}
