import { closeSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';
import { promisify } from 'node:util';

const datasync = promisify(fdatasync);

/** Makes every byte written to a SQLite WAL file so far durable; resolves once it is on disk. */
export type WalSync = () => Promise<void>;

/**
 * Syncs a database's write-ahead log (`<file>-wal`) on libuv's thread pool, so the event loop
 * goes on while the disk confirms (docs/decisions/0190). `fdatasync` flushes the file, not the
 * descriptor: what the SQLite connection wrote through its own descriptor is covered.
 *
 * The descriptor is opened once, by the first sync that finds the file, and kept: each user
 * holds an open connection to the database for as long as its WalFile, and while any connection
 * holds it SQLite neither deletes nor replaces the WAL (only the last connection to close deletes
 * it; the journal mode cannot leave WAL while another connection has the file; checkpoints,
 * TRUNCATE included, rewrite or truncate it in place). The path was checked with a `stat` before
 * every sync, which was 0.6% of the main thread's busy time per create (docs/decisions/0323).
 */
export class WalFile {
  private fd: number | null = null;

  constructor(private readonly path: string) {}

  private descriptor(): number {
    this.fd ??= openSync(this.path, 'r');
    return this.fd;
  }

  /** Off the event loop: resolves once the WAL's bytes written before the call are on disk. */
  readonly sync: WalSync = async () => datasync(this.descriptor());

  /** Blocking, for the moment of opening: what an earlier process wrote and did not sync. */
  syncNow(): void {
    try {
      fdatasyncSync(this.descriptor());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // no WAL yet: nothing to sync
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
