import type { DraftRevisions } from '../commands/compatible-drafts.js';
import type { ReadStore } from '../projections/ports.js';

const BATCH = 500;

/** Payloads of a collection's draft revisions from the `revisions` read model, in batches. */
export function draftRevisions(store: ReadStore): DraftRevisions {
  return async function* (folder) {
    const revisions = store.collection('revisions');
    for (let skip = 0; ; skip += BATCH) {
      const docs = await revisions.find({ folder, status: 'draft' }, { sort: [['key', 1]], skip, limit: BATCH });
      for (const doc of docs) yield doc.data;
      if (docs.length < BATCH) return;
    }
  };
}
