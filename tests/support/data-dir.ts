import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StoredEvent } from '../../commands/ports.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { openSqlite } from '../../infra/sqlite/open.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import type { DeliveryDoc } from '../../projections/ports.js';
import { tempDir } from './temp.js';

/** Every event of a stopped service's data directory, in global order. */
export async function allEvents(dataDir: string): Promise<StoredEvent[]> {
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  const events: StoredEvent[] = [];
  try {
    for (let page = await store.readAll('', 5000); page.length > 0; page = await store.readAll(page[page.length - 1]?.position ?? '', 5000)) {
      events.push(...page);
    }
  } finally {
    await store.close();
  }
  return events;
}

/** Every read-model document of a stopped service, by collection then id (the checkpoints left out). */
export function readModels(dataDir: string): Record<string, Record<string, unknown>> {
  const db = openSqlite(join(dataDir, 'read-models.db'), { readonly: true });
  try {
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_%' ESCAPE '\\' ORDER BY name").all();
    const dump: Record<string, Record<string, unknown>> = {};
    for (const { name } of tables) {
      const rows = db.prepare<[], { id: string; doc: string }>(`SELECT id, doc FROM ${name} ORDER BY id`).all();
      dump[name] = Object.fromEntries(rows.map((row) => [row.id, JSON.parse(row.doc)]));
    }
    return dump;
  } finally {
    db.close();
  }
}

/** The published delivery documents of one collection, through the SearchIndex port. */
export async function deliveryDocs(dataDir: string, env: string, folder: string): Promise<DeliveryDoc[]> {
  const index = new SqliteSearchIndex(join(dataDir, 'delivery.db'));
  try {
    return (await index.list(env, folder, { limit: 1_000_000 })).items;
  } finally {
    await index.close();
  }
}

/** A fresh data directory holding only the event store (and the bootstrap file and secret): what a rebuild from zero starts from. */
export function eventsOnlyCopy(dataDir: string): string {
  const fresh = tempDir();
  for (const file of ['events.db', 'events.db-wal', 'bootstrap.json', 'jwt-secret']) {
    if (existsSync(join(dataDir, file))) copyFileSync(join(dataDir, file), join(fresh, file));
  }
  return fresh;
}
