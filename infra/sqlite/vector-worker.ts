// A worker thread that answers k-NN vector queries on its own read connection to the delivery
// index (docs/decisions/0183), so that a hybrid search's vector side runs while the main
// thread runs its full-text side.
import { parentPort, workerData } from 'node:worker_threads';
import type { Scored, VectorQuery } from '../../projections/search-ports.js';
import { openSqlite } from './open.js';
import { SqliteSearchTables } from './search-tables.js';

export type VectorAsk = { readonly id: number; readonly env: string; readonly folder: string; readonly scope: string; readonly query: VectorQuery };
export type VectorReply = { readonly id: number; readonly hits?: Scored[]; readonly error?: string };

const db = openSqlite((workerData as { file: string }).file, { vectors: true });
const tables = new SqliteSearchTables(db);

parentPort?.on('message', (ask: VectorAsk) => {
  let reply: VectorReply;
  try {
    reply = { id: ask.id, hits: tables.searchVectors(ask.env, ask.folder, ask.scope, ask.query) };
  } catch (error) {
    reply = { id: ask.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
parentPort?.on('close', () => db.close());
