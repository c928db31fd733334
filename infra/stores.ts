import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventStore } from '../commands/ports.js';
import type { ReadStore, SearchIndex } from '../projections/ports.js';
import type { Config } from './config.js';
import { EventStoreDbEventStore } from './eventstoredb/event-store.js';
import { MongoReadStore } from './mongodb/read-store.js';
import { OpenSearchSearchIndex } from './opensearch/search-index.js';
import { adoptRebuiltDelivery } from './sqlite/delivery-adopt.js';
import { SqliteEventStore } from './sqlite/event-store.js';
import { SqliteReadStore } from './sqlite/read-store.js';
import { SqliteSearchIndex } from './sqlite/search-index.js';

export type Stores = { readonly eventStore: EventStore; readonly readStore: ReadStore; readonly searchIndex: SearchIndex };

/** Each port on its production engine when its URL is configured, else on SQLite files in the data directory. */
export function openStores(config: Config): Stores {
  mkdirSync(config.dataDir, { recursive: true });
  return {
    eventStore: config.eventStoreUrl ? new EventStoreDbEventStore(config.eventStoreUrl) : new SqliteEventStore(join(config.dataDir, 'events.db')),
    readStore: config.mongoUrl ? new MongoReadStore(config.mongoUrl) : new SqliteReadStore(join(config.dataDir, 'read-models.db')),
    searchIndex: config.openSearchUrl ? new OpenSearchSearchIndex(config.openSearchUrl) : new SqliteSearchIndex(adoptRebuiltDelivery(join(config.dataDir, 'delivery.db'))),
  };
}

export async function closeStores(stores: Stores): Promise<void> {
  await Promise.allSettled([stores.eventStore.close(), stores.readStore.close(), stores.searchIndex.close()]);
}
