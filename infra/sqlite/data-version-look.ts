import type { Statement } from './driver.js';
import type { SqliteDb } from './open.js';

/** How long a value read for one look may stand in for the next (a search's own steps are microseconds apart). */
const LEND_MS = 1;

/**
 * A reading connection's `PRAGMA data_version` (it moves on every commit of another connection or
 * process), read once for the two looks of a search (docs/decisions/0280): the search fields
 * cache reads it first and lends the value to the text index keeper's look, which takes it once
 * and only within a millisecond; any other look reads it again. A commit of another process
 * between the two is then one the search did not see, as if it had come a millisecond later;
 * this process's own writer tells the text index of its commits directly (TextChanges), not
 * through the file. Each read costs about 2.4 µs here (SQLite's pager lock and the driver's call).
 */
export class DataVersionLook {
  private readonly statement: Statement<[], number>;
  private lent = false;
  private lentValue = 0;
  private lentAt = 0;

  constructor(
    db: SqliteDb,
    private readonly lendMs = LEND_MS,
  ) {
    this.statement = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** Reads the value now and lends it to the next `borrow`. */
  read(): number {
    const value = this.statement.get()!;
    this.lent = true;
    this.lentValue = value;
    this.lentAt = performance.now();
    return value;
  }

  /** Reads the value now, lending nothing (a second look of the same step). */
  peek(): number {
    return this.statement.get()!;
  }

  /** The value the look just before read, once and within LEND_MS; otherwise read now. */
  borrow(): number {
    if (this.lent) {
      this.lent = false;
      if (performance.now() - this.lentAt < this.lendMs) return this.lentValue;
    }
    return this.statement.get()!;
  }
}
