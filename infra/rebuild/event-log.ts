import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { SqliteEventLogReader, type EventLog } from '../sqlite/event-log-reader.js';

/**
 * The log a rebuild replays: on the embedded default a plain reader of events.db
 * (docs/decisions/0225), otherwise the configured event store.
 */
export async function openEventLog(config: Config): Promise<EventLog> {
  // Loaded only when configured: the embedded store's module brings rxjs and its writing side.
  if (config.eventStoreUrl) return (await import('../cli/event-store.js')).openEventStoreOf(config);
  const file = join(config.dataDir, 'events.db');
  if (!existsSync(file)) throw new Error(`no event store at ${file} (set DATA_DIR or --data-dir)`);
  return new SqliteEventLogReader(file);
}
