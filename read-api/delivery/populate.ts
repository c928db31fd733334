import type { DeliveryDoc, SearchIndex } from '../../projections/ports.js';
import { deliveryItem } from './documents.js';
import type { EnvModel } from './models.js';
import type { Catalog } from './query/catalog.js';
import type { ReadOptions } from './query/read-options.js';
import type { DeliveryApi } from './routing.js';
import { localize } from './shape.js';

type Data = Record<string, unknown>;

const isObject = (value: unknown): value is Data => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Everything one request's populate needs; `seen` collects the documents it read (for the surrogate keys). */
export type PopulateContext = {
  readonly env: string;
  readonly api: DeliveryApi;
  readonly model: EnvModel;
  readonly index: SearchIndex;
  readonly options: ReadOptions;
  readonly seen: Map<string, DeliveryDoc | null>;
  /** Whether the reader's key may read a collection (docs/decisions/0161): references into others stay as they are. */
  readonly readable: (folder: string) => boolean;
};

/** The read methods this API grants on a collection (over all its addresses). */
const methodsOn = (api: DeliveryApi, folder: string): Set<string> =>
  new Set(api.routes.filter((r) => r.folder === folder).flatMap((r) => r.allowed_methods));

async function fetch(ctx: PopulateContext, folder: string, key: string): Promise<DeliveryDoc | null> {
  const id = `${folder}::${key}`;
  if (!ctx.seen.has(id)) ctx.seen.set(id, await ctx.index.get(ctx.env, folder, key));
  return ctx.seen.get(id) ?? null;
}

/**
 * One `folder::key` value: the document as `{_sys, data}` when this API grants get_one on
 * its collection, `{_sys}` with get_many only; the value unchanged when the reader may not
 * see it (not connected, not in the key's role, not published, unknown).
 */
async function resolve(ctx: PopulateContext, value: unknown, rest: readonly string[]): Promise<unknown> {
  if (typeof value !== 'string') return value;
  const at = value.indexOf('::');
  if (at <= 0) return value;
  const folder = value.slice(0, at);
  const methods = methodsOn(ctx.api, folder);
  if (!methods.has('get_one') && !methods.has('get_many')) return value;
  if (!ctx.readable(folder)) return value;
  const doc = await fetch(ctx, folder, value.slice(at + 2));
  if (!doc) return value;
  const withData = methods.has('get_one');
  const item = deliveryItem(doc, withData);
  if (withData && doc.data) {
    const catalog = ctx.model.collections.get(folder)?.catalog ?? new Map();
    let data: Data = doc.data;
    if (rest.length > 0) data = await populatePath(ctx, data, catalog, rest);
    item.data = ctx.options.raw ? data : localize(data, catalog, ctx.options, ctx.model.locales);
  }
  return item;
}

/** Replaces the references along one path (`author`, `author.company`) inside `data`. */
export async function populatePath(ctx: PopulateContext, data: Data, catalog: Catalog, path: readonly string[]): Promise<Data> {
  const [segment, ...rest] = path;
  if (segment === undefined || !Object.hasOwn(data, segment)) return data;
  const field = catalog.get(segment);
  if (!field) return data;
  const value = data[segment];
  const one = (v: unknown) => resolve(ctx, v, rest);
  const each = async (v: unknown): Promise<unknown> => (Array.isArray(v) ? Promise.all(v.map(one)) : one(v));
  let next: unknown = value;
  if (field.reference) {
    next = field.localizable && isObject(value) ? Object.fromEntries(await Promise.all(Object.entries(value).map(async ([c, v]) => [c, await each(v)]))) : await each(value);
  } else if (field.children.size > 0 && isObject(value)) next = await populatePath(ctx, value, field.children, rest);
  return { ...data, [segment]: next };
}
