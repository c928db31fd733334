import type { Statement } from './driver.js';
import type { SqliteDb } from './open.js';

/** Streams whose head is remembered; beyond it all are forgotten at once (then learnt again). */
const MAX_STREAMS = 100_000;

/**
 * What the event store's connection knows of its streams' heads, so that reading a stream
 * from past its head (the command bus bringing a cached state up to date, about six times per
 * resource create) needs no query (docs/decisions/0270). Each remembered value is an upper
 * bound of the stream's newest revision: exact after this connection appended to it or read
 * its newest event, `from - 1` after a read from `from` found nothing, -1 when it has no event.
 *
 * Another connection (another process) may append: SQLite's `data_version` changes when one
 * commits, and then everything is forgotten. It is asked once per turn of the event loop, so
 * a turn reads the log as it was at its start, as if its reads had all been made then.
 */
export class StreamHeads {
  private readonly heads = new Map<string, number>();
  private readonly dataVersion: Statement<[], number>;
  private version: number;
  private checked = false;

  constructor(db: SqliteDb) {
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.version = this.dataVersion.get() ?? 0;
  }

  /** Whether the stream surely holds no event at or after revision `from`. */
  nothingFrom(stream: string, from: number): boolean {
    this.sameLog();
    const head = this.heads.get(stream);
    return head !== undefined && head < from;
  }

  /** After a read from `from`: `last`, the newest revision it returned, or undefined when it found none. */
  read(stream: string, from: number, last: number | undefined): void {
    const known = this.heads.get(stream);
    this.remember(stream, last ?? (known === undefined ? from - 1 : Math.min(known, from - 1)));
  }

  /** The stream's head is `revision` (-1: no event): this connection committed an append, or read the head to check one. */
  headIs(stream: string, revision: number): void {
    this.remember(stream, revision);
  }

  private remember(stream: string, revision: number): void {
    if (this.heads.size >= MAX_STREAMS && !this.heads.has(stream)) this.heads.clear();
    this.heads.set(stream, revision);
  }

  /** Forgets every head when another connection committed since the last look (once per turn). */
  private sameLog(): void {
    if (this.checked) return;
    this.checked = true;
    setImmediate(() => (this.checked = false));
    const version = this.dataVersion.get() ?? 0;
    if (version === this.version) return;
    this.version = version;
    this.heads.clear();
  }
}
