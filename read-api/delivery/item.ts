import type { DeliveryDoc } from '../../projections/ports.js';
import { deliveryItem } from './documents.js';
import type { CollectionModel } from './models.js';
import { populatePath, type PopulateContext } from './populate.js';
import { localize, selectFields, truncateText } from './shape.js';

/**
 * A delivered document: `_sys`, and `data` where the connection serves content, populated,
 * localized, narrowed to `fields` and truncated as the request asks.
 */
export async function shapeItem(doc: DeliveryDoc, withData: boolean, collection: CollectionModel | undefined, ctx: PopulateContext): Promise<Record<string, unknown>> {
  const item = deliveryItem(doc, withData);
  if (!withData || !doc.data) return item;
  const catalog = collection?.catalog ?? new Map();
  const { options } = ctx;
  let data = doc.data;
  for (const path of options.populate) data = await populatePath(ctx, data, catalog, path);
  if (!options.raw) data = localize(data, catalog, options, ctx.model.locales);
  if (options.fields) data = selectFields(data, options.fields);
  if (options.truncate !== null) data = truncateText(data, catalog, collection?.text_paths ?? new Set(), options.truncate);
  item.data = data;
  return item;
}

/**
 * The surrogate keys of an answer: the environment (its locales shape every answer), the API
 * (its connections decide what is served), the collection, its documents and every document
 * populate read.
 */
export function surrogateKeys(folder: string, docs: readonly Pick<DeliveryDoc, 'key'>[], ctx: PopulateContext): string[] {
  const keys = [ctx.env, ctx.api.key, folder, ...docs.map((d) => d.key)];
  // A document populate did not find counts too: its publish changes this answer.
  for (const id of ctx.seen.keys()) {
    const at = id.indexOf('::');
    keys.push(id.slice(0, at), id.slice(at + 2));
  }
  return keys;
}
