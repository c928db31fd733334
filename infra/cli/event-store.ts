import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EventStore } from '../../commands/ports.js';
import type { Config } from '../config.js';
import { SqliteEventStore } from '../sqlite/event-store.js';

/**
 * The event store of the configured data directory (or EVENTSTORE_URL) for the command-line
 * tools; never creates one. The EventStoreDB driver is loaded only when configured.
 */
export async function openEventStoreOf(config: Config): Promise<EventStore> {
  if (config.eventStoreUrl) return new (await import('../eventstoredb/event-store.js')).EventStoreDbEventStore(config.eventStoreUrl);
  const file = join(config.dataDir, 'events.db');
  if (!existsSync(file)) throw new Error(`no event store at ${file} (set DATA_DIR or --data-dir)`);
  return new SqliteEventStore(file);
}
