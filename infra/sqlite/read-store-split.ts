import type { Position } from '../../commands/ports.js';
import type { Doc, ReadCollection, ReadStore, ReadStoreTx } from '../../projections/ports.js';

/** The consumers whose batches write the side file, and the only collections they write (docs/decisions/0320). */
export const SIDE_CONSUMERS: ReadonlySet<string> = new Set(['revisions', 'usage']);
export const SIDE_COLLECTIONS: ReadonlySet<string> = new Set(['revisions', 'usage', 'usage_revisions']);

/**
 * The read store over two files (docs/decisions/0320): the revisions' and usage's collections and
 * checkpoints in a file of their own, so that a second thread can commit them while the read
 * models' thread commits the main file (SQLite: one writer a file). Every other collection and
 * consumer stays in the main file. Each consumer writes only its own collections, so a unit of
 * work never spans the two files.
 */
export class SplitReadStore implements ReadStore {
  constructor(
    private readonly main: ReadStore,
    private readonly side: ReadStore,
  ) {}

  private of(collection: string): ReadStore {
    return SIDE_COLLECTIONS.has(collection) ? this.side : this.main;
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return this.of(name).collection<T>(name);
  }

  ensureIndex(collection: string, fields: readonly string[]): Promise<void> {
    return this.of(collection).ensureIndex(collection, fields);
  }

  unitOfWork(consumer: string, position: Position, work: (tx: ReadStoreTx) => Promise<void>): Promise<void> {
    const store = SIDE_CONSUMERS.has(consumer) ? this.side : this.main;
    return store.unitOfWork(consumer, position, async (tx) => {
      // A consumer writing the other file's collections would not be atomic with its checkpoint.
      await work({
        collection: <T extends Doc>(name: string) => {
          if (this.of(name) !== store) throw new Error(`consumer ${consumer} writes ${name}, which lives in the other read-model file`);
          return tx.collection<T>(name);
        },
      });
    });
  }

  checkpoint(consumer: string): Promise<Position> {
    return (SIDE_CONSUMERS.has(consumer) ? this.side : this.main).checkpoint(consumer);
  }

  async close(): Promise<void> {
    await Promise.all([this.main.close(), this.side.close()]);
  }
}
