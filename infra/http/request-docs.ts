import type { Doc, ReadCollection, ReadStore } from '../../projections/ports.js';

/**
 * The documents every management request reads before its handler (the credential's user, the
 * organization's plan for the rate limit, the environment), kept until the read models' next
 * batch (docs/decisions/0270). Only that batch can change them: the runner calls `forget()`
 * after it commits and before any write waiting on it is answered, so a read after a write
 * sees what the write changed, as a read of the store does. With 32 writers each request read
 * and parsed the same three documents again (about 2% of the main thread per create).
 *
 * A kept document is frozen and shared by the requests that read it: the middleware using
 * these reads only looks at them.
 */
export class RequestDocs {
  private readonly kept = new Map<string, Promise<Doc | null>>();

  constructor(
    private readonly store: ReadStore,
    private readonly names: ReadonlySet<string>,
  ) {}

  /** A read store whose `get` of the named collections answers from what was kept; everything else goes to the store. */
  readonly reads: ReadStore = {
    collection: <T extends Doc = Doc>(name: string): ReadCollection<T> => {
      const collection = this.store.collection<T>(name);
      if (!this.names.has(name)) return collection;
      return {
        get: (id) => this.get(name, id, collection) as Promise<T | null>,
        find: (filter, options) => collection.find(filter, options),
        count: (filter) => collection.count(filter),
        upsert: (doc) => collection.upsert(doc),
        delete: (id) => collection.delete(id),
        deleteMany: (filter) => collection.deleteMany(filter),
      };
    },
    ensureIndex: (collection, fields) => this.store.ensureIndex(collection, fields),
    unitOfWork: (consumer, position, work) => this.store.unitOfWork(consumer, position, work),
    checkpoint: (consumer) => this.store.checkpoint(consumer),
    close: () => this.store.close(),
  };

  private get<T extends Doc>(name: string, id: string, collection: ReadCollection<T>): Promise<Doc | null> {
    const key = `${name}\u0000${id}`;
    let doc = this.kept.get(key);
    if (doc === undefined) {
      const read = collection.get(id).then((found) => (found === null ? null : Object.freeze(found)));
      doc = read;
      // A failed read is not kept.
      read.catch(() => {
        if (this.kept.get(key) === read) this.kept.delete(key);
      });
      if (this.kept.size >= MAX_KEPT) this.kept.clear();
      this.kept.set(key, read);
    }
    return doc;
  }

  /** After each read-model batch: later reads see what it wrote. */
  forget(): void {
    this.kept.clear();
  }
}

/** Documents kept at most between two batches (then all are dropped at once). */
const MAX_KEPT = 10_000;
