import { RecentValues } from '../../projections/recent-values.js';

/**
 * `vectors_size` of the delivery documents the last two committed units of work wrote, by
 * `docId` (docs/decisions/0296, projections/recent-values.ts): every write of a document there
 * sets its vectors exactly (indexing a document clears them, indexing its search entries replaces
 * them, removing it removes them), so what the unit of work wrote is what the file holds until a
 * later one writes the document again. A resource write's answer reads its `vectors_size` here
 * instead of querying `doc_vectors`. A unit that removed a whole collection drops the older one.
 */
export class RecentVectorSizes extends RecentValues<number> {}

/** One document's address as one string (no part contains a NUL). */
export const docId = (env: string, folder: string, key: string): string => `${env}\u0000${folder}\u0000${key}`;

/** The start every `docId` of a collection shares. */
export const folderPrefix = (env: string, folder: string): string => `${env}\u0000${folder}\u0000`;
