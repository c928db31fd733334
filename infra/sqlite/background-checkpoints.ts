import { Worker } from 'node:worker_threads';
import { DRIVER_PATH } from './driver.js';
import type { SqliteDb } from './open.js';

/** How often the checkpoint thread looks for new WAL content (docs/decisions/0191). */
const INTERVAL_MS = 1_000;
/** How long closing a file waits for the checkpoint thread to let go of it. */
const RELEASE_TIMEOUT_MS = 5_000;

/**
 * The checkpoint thread, as a CommonJS script (a worker from source text, so it runs the same
 * under the TypeScript loader and from `dist/`). It holds one connection per registered file
 * and, every INTERVAL_MS, runs a PASSIVE checkpoint on each file whose WAL was written since
 * its last one: the copy of pages into the database file and its syncs happen here, beside the
 * writers on the main thread, instead of inside one of their commits (docs/decisions/0191).
 */
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
const files = new Map();
parentPort.on('message', (m) => {
  if (m.add) {
    try {
      const db = new Database(m.add, { fileMustExist: true });
      db.pragma('synchronous = NORMAL');
      files.set(m.id, { file: m.add, db, written: 0 });
    } catch (error) {
      parentPort.postMessage({ error: 'opening ' + m.add + ': ' + error.message });
    }
  } else if (m.remove !== undefined) {
    const entry = files.get(m.remove);
    files.delete(m.remove);
    try { if (entry) entry.db.close(); } finally { parentPort.postMessage({ removed: m.remove }); }
  }
});
setInterval(() => {
  for (const entry of files.values()) {
    const file = entry.file;
    let written;
    try { written = statSync(file + '-wal').mtimeMs; } catch { continue; }
    if (written === entry.written) continue;
    entry.written = written;
    try { entry.db.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { parentPort.postMessage({ error: 'checkpoint of ' + file + ': ' + error.message }); }
  }
}, workerData.intervalMs);
`;

type Message = { readonly removed?: number; readonly error?: string };

/**
 * The one checkpoint thread of the process, started with the first file. It stays (idle, and
 * never keeping the process alive) when the last file is released: a store opened again, as
 * tests and restarts in one process do, does not pay for a new thread.
 */
class Checkpointer {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly releases = new Map<number, () => void>();

  private start(): Worker {
    const worker = new Worker(SCRIPT, { eval: true, workerData: { driver: DRIVER_PATH, intervalMs: INTERVAL_MS } });
    worker.on('message', (m: Message) => {
      if (m.removed !== undefined) this.releases.get(m.removed)?.();
      if (m.error) process.emitWarning(`background checkpoint: ${m.error}`);
    });
    worker.on('error', (error) => process.emitWarning(`background checkpoint thread failed: ${error.message}`));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      for (const release of this.releases.values()) release();
      this.releases.clear();
    });
    // After the listeners: a 'message' listener added to a worker refs its port again, and the
    // thread would then keep the process alive once everything else has closed.
    worker.unref();
    return worker;
  }

  add(file: string): () => Promise<void> {
    this.worker ??= this.start();
    const worker = this.worker;
    const id = this.nextId++;
    worker.postMessage({ add: file, id });
    let released: Promise<void> | null = null;
    return () => (released ??= this.remove(worker, id));
  }

  /** Resolves once the thread closed its connection: the caller may then close, rename or delete the file. */
  private async remove(worker: Worker, id: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, RELEASE_TIMEOUT_MS);
      this.releases.set(id, () => {
        clearTimeout(timer);
        this.releases.delete(id);
        resolve();
      });
      worker.postMessage({ remove: id });
    });
  }
}

const checkpointer = new Checkpointer();

/** The WAL size (pages) at which the writing connection still checkpoints by itself: the thread is late. */
const FALLBACK_AUTOCHECKPOINT_PAGES = 20_000;

/**
 * Checkpoints the WAL of `writer`'s file on the process's checkpoint thread from now on; the
 * writing connection keeps SQLite's automatic checkpoint only as a fallback, at a higher mark.
 * Returns the release to await before closing the file.
 */
export function checkpointInBackground(writer: SqliteDb, file: string): () => Promise<void> {
  writer.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  return checkpointer.add(file);
}

/**
 * For a connection that writes a file for a short while and closes it (a rebuild): no checkpoint
 * thread is started for it. Its WAL is checkpointed by the running service's thread, if one has
 * the file open, or else when its last connection closes; the writing connection still
 * checkpoints by itself at the fallback mark (docs/decisions/0295).
 */
export function checkpointWithoutThread(writer: SqliteDb): () => Promise<void> {
  writer.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  return async () => {};
}
