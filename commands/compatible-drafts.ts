import type { JsonSchema } from '../domain/schema/json-schema.js';
import { DataValidator } from './data-validator.js';

/**
 * The payloads of a collection's draft revisions, in batches. Resources have no common stream,
 * so the write side reads them from the `revisions` read model (decision 0022).
 */
export type DraftRevisions = (folder: string) => AsyncIterable<unknown>;

/** How many draft revisions of the collection the schema a publish would generate accepts. */
export async function countCompatibleDrafts(drafts: DraftRevisions, folder: string, schema: JsonSchema): Promise<number> {
  // A fresh validator: a draft version's schema changes with its fields, so it is never cached.
  const validator = new DataValidator();
  let count = 0;
  for await (const data of drafts(folder)) {
    if (validator.validate('candidate', schema, data).length === 0) count += 1;
  }
  return count;
}
