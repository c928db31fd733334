// The text search thread (docs/decisions/0305): the in-memory text index of one delivery index
// file and the searches it answers, beside the service's main thread (text-search-client.ts).
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Scored, TextQuery } from '../../projections/search-ports.js';
import { DataVersionLook } from './data-version-look.js';
import { openSqlite } from './open.js';
import { SqliteSearchTables } from './search-tables.js';
import { SYNC_LOAD_ROWS, TextIndexKeeper, type Change } from './text-index-keeper.js';

/** What the main thread posts (one a message): a search, a question (how many loads), or the request to stop. */
export type ThreadRequest =
  | { readonly id: number; readonly env: string; readonly folder: string; readonly query: TextQuery }
  | { readonly id: number; readonly loads: true }
  | { readonly stop: true };
/** What this thread answers a search (its hits or its failure), or how many loads its copy took. */
export type ThreadAnswer = { readonly id: number; readonly hits?: Scored[]; readonly error?: string; readonly loads?: number };
/** The changes of one commit of the process's writer, on the changes port. */
export type PostedChanges = { readonly changes: readonly Change[]; readonly generation: number };
export type ThreadData = { readonly file: string; readonly changes: MessagePort; readonly committing: BigInt64Array; readonly syncLoadRows?: number };

const data = workerData as ThreadData;
const db = openSqlite(data.file);

const takePosted = (): void => {
  for (let message = receiveMessageOnPort(data.changes); message; message = receiveMessageOnPort(data.changes)) {
    const { changes, generation } = message.message as PostedChanges;
    keeper.apply(changes, generation);
  }
};

const keeper: TextIndexKeeper = new TextIndexKeeper(db, data.file, data.syncLoadRows ?? SYNC_LOAD_ROWS, new DataVersionLook(db), {
  takePosted,
  committing: () => Number(Atomics.load(data.committing, 0)),
});
const tables = new SqliteSearchTables(db, { keeper });
// Between searches too: a long run of writes with no search must not pile its changes up in the port.
data.changes.on('message', ({ changes, generation }: PostedChanges) => keeper.apply(changes, generation));

async function search(env: string, folder: string, query: TextQuery): Promise<Scored[]> {
  // The changes posted before this search was: a search sent after a commit sees it.
  takePosted();
  if (!query.words) return tables.searchText(env, folder, query);
  await keeper.prepare();
  return tables.searchText(env, folder, query, true);
}

const port = parentPort!;

/**
 * Each answer is posted as soon as its search is done, and each request comes on its own
 * (text-search-client.ts): answers held until the thread's queue was empty went back to the main
 * thread nearly all ten at once, which then wrote them all while this thread waited for the next
 * requests; the two threads took turns instead of overlapping (docs/decisions/0309).
 */
port.on('message', (request: ThreadRequest) => {
  if ('stop' in request) {
    // A load under way ends with the thread (its connection is closed with it).
    db.close();
    process.exit(0);
  }
  if ('loads' in request) {
    port.postMessage({ id: request.id, loads: keeper.loads } satisfies ThreadAnswer);
    return;
  }
  search(request.env, request.folder, request.query).then(
    (hits) => port.postMessage({ id: request.id, hits } satisfies ThreadAnswer),
    (error: unknown) => port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies ThreadAnswer),
  );
});
