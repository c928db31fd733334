import { closeSync, fdatasync, fdatasyncSync, fstatSync, openSync, statSync } from 'node:fs';
import { promisify } from 'node:util';

const datasync = promisify(fdatasync);

/** Makes every byte written to a SQLite WAL file so far durable; resolves once it is on disk. */
export type WalSync = () => Promise<void>;

/**
 * Syncs a database's write-ahead log (`<file>-wal`) on libuv's thread pool, so the event loop
 * goes on while the disk confirms (docs/decisions/0190). `fdatasync` flushes the file, not the
 * descriptor: what the SQLite connection wrote through its own descriptor is covered. The file
 * is opened again if SQLite replaced it (it does not while a connection holds the database).
 */
export class WalFile {
  private fd: number | null = null;
  private inode = -1;

  constructor(private readonly path: string) {}

  private descriptor(): number {
    const current = statSync(this.path).ino;
    if (this.fd !== null && current === this.inode) return this.fd;
    this.close();
    this.fd = openSync(this.path, 'r');
    this.inode = fstatSync(this.fd).ino;
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
    this.inode = -1;
  }
}
