import type { DomainEvent } from '../domain/events.js';
import type { Embedder } from './embedder.js';
import type { SearchIndexTx } from './ports.js';
import { activeFields, searchFieldChanges } from './search-fields.js';
import { searchEntries } from './search-entries.js';

/** Documents whose published payload an event sets: their search entries are rebuilt. */
function publishedDocs(event: DomainEvent): readonly { env: string; folder: string; key: string }[] {
  if (event.type === 'RevisionPublished') return [{ env: event.data.env, folder: event.data.folder, key: event.data.resource }];
  if (event.type === 'RevisionCreated' && event.data.status === 'published') return [{ env: event.data.env, folder: event.data.folder, key: event.data.resource }];
  return [];
}

/**
 * The search step of the delivery-index projection, run after an event's document changes:
 * follows the schemas, and indexes the texts, embeddings and custom vectors of a newly published
 * payload. Unpublishes and deletes clear them with the document. Replaying gives the same entries.
 */
export async function applySearchStep(tx: SearchIndexTx, event: DomainEvent, embedder: Embedder): Promise<void> {
  for (const change of searchFieldChanges(event)) await tx.setMeta(change.id, change.apply(await tx.meta(change.id)));
  for (const { env, folder, key } of publishedDocs(event)) {
    const doc = await tx.get(env, folder, key);
    if (!doc || doc.data === null) continue;
    const fields = await activeFields((id) => tx.meta(id), env, folder);
    if (fields.length === 0) continue;
    await tx.indexSearch(env, folder, key, await searchEntries(fields, doc.data, embedder));
  }
}
