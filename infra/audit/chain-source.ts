import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { StoredChainRow } from './hash-chain.js';

const PAGE = 1000;

/** The log as the chain covers it, oldest first, with each event's stored hash: what export, verify and the bundle read. */
export type ChainSource = {
  /** Events to expect (0 when the store cannot tell cheaply): a progress bar's total. */
  readonly total: number;
  rows(): AsyncIterable<StoredChainRow>;
  close(): Promise<void>;
};

/** The configured event store's log (EVENTSTORE_URL, else DATA_DIR's events.db); never creates one. */
export async function openChainSource(config: Config): Promise<ChainSource> {
  if (config.eventStoreUrl) {
    const store = new (await import('../eventstoredb/event-store.js')).EventStoreDbEventStore(config.eventStoreUrl);
    return { total: 0, rows: () => store.chainRows(), close: () => store.close() };
  }
  const file = join(config.dataDir, 'events.db');
  if (!existsSync(file)) throw new Error(`no event store at ${file} (set DATA_DIR or --data-dir)`);
  const reader = new (await import('../sqlite/event-log-reader.js')).SqliteEventLogReader(file);
  const head = await reader.headPosition();
  return {
    total: head === '' ? 0 : Number(head),
    async *rows() {
      let after = '';
      for (let rows = reader.readChain(after, PAGE); rows.length > 0; rows = reader.readChain(after, PAGE)) {
        yield* rows;
        after = rows[rows.length - 1]!.position;
      }
    },
    close: () => reader.close(),
  };
}
