import type { Position, StoredEvent } from '../commands/ports.js';
import type { DomainEvent } from '../domain/events.js';
import type { Doc, Filter, ReadStore } from './ports.js';
import { BatchDocuments, batchOver, isHeld } from './batch-documents.js';
import type { RecentDocs } from './recent-docs.js';
import type { ProjectionTarget } from './runner.js';

/**
 * One document a projection changes for an event; `apply` returns the new document, or null to
 * delete it. The document it returns is a new object or `current` itself, never one it shares
 * with anything else: a rebuild stamps it in place (docs/decisions/0308).
 */
export type DocChange = {
  readonly collection: string;
  readonly id: string;
  readonly apply: (current: Doc | null) => Doc | null;
};

/** Every document of `collection` matching `where` is deleted (a cascade, e.g. a deleted collection's resources). */
export type BulkRemoval = { readonly collection: string; readonly where: Filter };

/** A read model: pure functions from an event to the document changes it makes. */
export type ReadModelProjection = {
  readonly changes: (event: DomainEvent, stored: StoredEvent) => readonly DocChange[];
  /** Deletions by filter; documents written at or after the event's position are kept. */
  readonly removals?: (event: DomainEvent) => readonly BulkRemoval[];
  /** Index declarations: collection → field lists. */
  readonly indexes?: Readonly<Record<string, readonly (readonly string[])[]>>;
};

export const asDomainEvent = (event: StoredEvent): DomainEvent => ({ type: event.type, data: event.data }) as DomainEvent;

/**
 * Applies read-model projections to the ReadStore. Every document keeps the position of
 * the last event applied to it (`_position`), and an event at or before it is skipped,
 * so a replayed batch changes nothing.
 */
export function readModelTarget(
  store: ReadStore,
  projections: readonly ReadModelProjection[],
  name = 'read-models',
  /** Collections whose documents each committed batch hands over (docs/decisions/0296). */
  recent: readonly RecentDocs[] = [],
): ProjectionTarget & { prepare(): Promise<void> } {
  return {
    name,
    async prepare() {
      for (const projection of projections) {
        for (const [collection, indexes] of Object.entries(projection.indexes ?? {})) {
          for (const fields of indexes) await store.ensureIndex(collection, fields);
        }
      }
    },
    checkpoint: () => store.checkpoint(name),
    async apply(events: readonly StoredEvent[], position: Position) {
      const held: { batch: BatchDocuments | null } = { batch: null };
      try {
        await store.unitOfWork(name, position, async (storeTx) => {
          // Each document read and written once per batch (docs/decisions/0194).
          const tx = batchOver(storeTx);
          if (tx instanceof BatchDocuments) held.batch = tx;
          for (const stored of events) {
            const event = asDomainEvent(stored);
            for (const projection of projections) {
              for (const change of projection.changes(event, stored)) {
                const collection = tx.collection(change.collection);
                // A rebuild's buffer answers from memory: the change folds into the held document without waiting (0308).
                const held = isHeld(collection) ? collection : null;
                let current = held === null ? undefined : held.peek(change.id);
                if (current === undefined) current = await collection.get(change.id);
                if (current && typeof current._position === 'string' && current._position >= stored.position) continue;
                const next = change.apply(current);
                if (held !== null) {
                  // The buffer owns what it holds and `apply` answers a new document or `current`: stamped in place, not copied (0308).
                  held.hold(change.id, next === null ? null : Object.assign(next, { _id: change.id, _position: stored.position }));
                } else if (next === null) await collection.delete(change.id);
                else await collection.upsert({ ...{}, ...next, _id: change.id, _position: stored.position }); // `...{}`: docs/decisions/0323
              }
              for (const removal of projection.removals?.(event) ?? []) {
                await tx.collection(removal.collection).deleteMany({ $and: [removal.where, { _position: { $lt: stored.position } }] });
              }
            }
          }
          await tx.flush();
        });
      } catch (error) {
        // Nothing of the batch is stored; what was handed over before may still be: hand over nothing.
        for (const docs of recent) docs.forget();
        throw error;
      }
      // Committed: what the batch left is what the store holds for those ids (docs/decisions/0296).
      const { batch } = held;
      if (batch === null) return;
      for (const docs of recent) {
        const left = batch.held(docs.collection);
        docs.committed(left.docs, left.removed);
      }
    },
  };
}

/** A change that writes a document regardless of what was there. */
export const put = (collection: string, id: string, doc: Record<string, unknown>): DocChange => ({
  collection,
  id,
  // `...{}` first: a literal that starts with a spread and adds properties after it is slow in V8 (Node 20, docs/decisions/0323).
  apply: () => ({ ...{}, ...doc, _id: id }),
});

/** A change that merges fields into an existing document (and does nothing if it is gone). */
export const patch = (collection: string, id: string, fields: Record<string, unknown>): DocChange => ({
  collection,
  id,
  apply: (current) => (current ? { ...current, ...fields } : null),
});

/** A change that deletes a document. */
export const remove = (collection: string, id: string): DocChange => ({ collection, id, apply: () => null });
