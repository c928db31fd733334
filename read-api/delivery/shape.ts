import type { Locales } from './models.js';
import type { Catalog } from './query/catalog.js';
import type { ReadOptions } from './query/read-options.js';

/**
 * Shaping a delivered payload: localizable values keep the returned locales (a missing
 * translation is null, or comes from the fallback chain when asked), `fields` keeps the
 * named paths, `truncate_text` cuts text fields.
 */

type Data = Record<string, unknown>;

const isObject = (value: unknown): value is Data => value !== null && typeof value === 'object' && !Array.isArray(value);
const ownValue = (value: Data, key: string): unknown => (Object.hasOwn(value, key) ? value[key] : undefined);

/**
 * Where a missing translation comes from (docs/decisions/0042): the locale itself, then the
 * locales its code extends (`de_AT` → `de`), then the environment's default locale; only
 * locales of the environment.
 */
export function fallbackChain(code: string, locales: Locales): string[] {
  const parts = code.split('_');
  const chain = parts.map((_, i) => parts.slice(0, parts.length - i).join('_'));
  chain.push(locales.default);
  return [...new Set(chain)].filter((c) => locales.codes.includes(c));
}

function translation(value: Data, code: string, options: ReadOptions, locales: Locales): unknown {
  const own = ownValue(value, code);
  if (own !== undefined && own !== null) return own;
  if (!options.fallback) return null;
  for (const candidate of fallbackChain(code, locales)) {
    const found = ownValue(value, candidate);
    if (found !== undefined && found !== null) return found;
  }
  return null;
}

export function localize(data: Data, catalog: Catalog, options: ReadOptions, locales: Locales): Data {
  const out: Data = {};
  for (const [key, value] of Object.entries(data)) {
    const field = catalog.get(key);
    if (field?.localizable && isObject(value)) {
      out[key] = Object.fromEntries(options.returnLocales.map((code) => [code, translation(value, code, options, locales)]));
    } else if (field && field.children.size > 0 && isObject(value)) {
      out[key] = localize(value, field.children, options, locales);
    } else if (field && field.children.size > 0 && Array.isArray(value)) {
      out[key] = value.map((item) => (isObject(item) ? localize(item, field.children, options, locales) : item));
    } else out[key] = value;
  }
  return out;
}

/** Only the named paths (`title`, `author.name`) of the payload. */
export function selectFields(data: Data, paths: readonly (readonly string[])[]): Data {
  const out: Data = {};
  for (const path of paths) {
    let source: unknown = data;
    let target = out;
    for (const [i, segment] of path.entries()) {
      if (!isObject(source) || !Object.hasOwn(source, segment)) break;
      const value = source[segment];
      if (i === path.length - 1 || !isObject(value)) {
        target[segment] = value;
        break;
      }
      target[segment] = isObject(target[segment]) ? target[segment] : {};
      target = target[segment] as Data;
      source = value;
    }
  }
  return out;
}

const cut = (value: unknown, max: number): unknown => {
  if (typeof value !== 'string') return value;
  const chars = Array.from(value);
  return chars.length > max ? chars.slice(0, max).join('') : value;
};

/** Text fields (and each locale of a localizable one) cut to `max` characters. */
export function truncateText(data: Data, catalog: Catalog, textPaths: ReadonlySet<string>, max: number, prefix = ''): Data {
  const out: Data = {};
  for (const [key, value] of Object.entries(data)) {
    const path = `${prefix}${key}`;
    const field = catalog.get(key);
    if (textPaths.has(path)) {
      out[key] = isObject(value) ? Object.fromEntries(Object.entries(value).map(([code, v]) => [code, cut(v, max)])) : cut(value, max);
    } else if (field && field.children.size > 0 && isObject(value)) {
      out[key] = truncateText(value, field.children, textPaths, max, `${path}.`);
    } else if (field && field.children.size > 0 && Array.isArray(value)) {
      out[key] = value.map((item) => (isObject(item) ? truncateText(item, field.children, textPaths, max, `${path}.`) : item));
    } else out[key] = value;
  }
  return out;
}
