import type { DeliveryDoc, StoredDoc } from '../../projections/ports.js';
import type { CollectionModel } from './models.js';
import type { Catalog } from './query/catalog.js';
import type { ReadOptions } from './query/read-options.js';

/**
 * A list page written with each payload's stored JSON text spliced in (docs/decisions/0235),
 * when shaping would leave every payload as it is stored: the connection serves content, no
 * `populate`, `fields` or `truncate_text`, and either `raw` or a collection without localizable
 * or nested fields (localization copies every other value unchanged). The bytes are those of
 * `JSON.stringify` of the general path's body: the same keys in the same order, and the stored
 * text is the `JSON.stringify` of the payload the projection indexed.
 */

const plainCatalogs = new WeakMap<Catalog, boolean>();

/** Whether localization leaves every payload of this catalog unchanged. */
function plainCatalog(catalog: Catalog): boolean {
  let plain = plainCatalogs.get(catalog);
  if (plain === undefined) {
    plain = [...catalog.values()].every((field) => !field.localizable && field.children.size === 0);
    plainCatalogs.set(catalog, plain);
  }
  return plain;
}

/** Whether a page of this request serves each payload as stored. */
export function servesStoredPayloads(withData: boolean, collection: CollectionModel | undefined, options: ReadOptions): boolean {
  if (!withData || options.populate.length > 0 || options.fields !== null || options.truncate !== null) return false;
  return options.raw || plainCatalog(collection?.catalog ?? new Map());
}

/** The document with its payload parsed (`parse`), or without it, for a cursor of `_sys` fields only. */
export function parsedDoc(doc: StoredDoc, parse = true): DeliveryDoc {
  const data = parse ? (JSON.parse(doc.text) as Record<string, unknown> | null) : null;
  return { env: doc.env, folder: doc.folder, key: doc.key, created_at: doc.created_at, updated_at: doc.updated_at, owner: doc.owner, data };
}

const str = JSON.stringify;

/**
 * The page's JSON text, or undefined when a payload names `__proto__` (which parsing and
 * copying would not keep as an own key): then the general path answers.
 */
export function listText(head: { limit: number; next: string | null; previous: string | null }, items: readonly StoredDoc[]): string | undefined {
  const results = resultsText(items);
  if (results === undefined) return undefined;
  return `{"limit":${str(head.limit)},"next":${str(head.next)},"previous":${str(head.previous)},"results":[${results}]}`;
}

/** The items of a page, comma-separated (no brackets), or undefined as for listText; also `_search`'s results (0260). */
export function resultsText(items: readonly StoredDoc[]): string | undefined {
  let results = '';
  for (const doc of items) {
    if (doc.text.includes('"__proto__"')) return undefined;
    // `_sys` as JSON.stringify writes the object deliveryItem builds (four strings).
    const sys = `{"key":${str(doc.key)},"created_at":${str(doc.created_at)},"updated_at":${str(doc.updated_at)},"folder":${str(doc.folder)}}`;
    results += `${results === '' ? '' : ','}{"_sys":${sys},"data":${doc.text}}`;
  }
  return results;
}
