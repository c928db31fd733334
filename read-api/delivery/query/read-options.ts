import { DomainError } from '../../../domain/errors.js';
import { queryBool, queryString } from '../../../api/query.js';
import type { Locales } from '../models.js';
import type { Catalog } from './catalog.js';
import { WHERE_PREFIX } from './where.js';

/** How a delivery read shapes its documents (list and get-one alike). */
export type ReadOptions = {
  /** Locale that localizable fields are filtered and sorted in. */
  readonly searchLocale: string;
  /** Locales kept in localizable values, in this order. */
  readonly returnLocales: readonly string[];
  /** Fill a missing translation from the locale's fallback chain (else null). */
  readonly fallback: boolean;
  /** Data paths to keep, or null for all. */
  readonly fields: readonly (readonly string[])[] | null;
  /** Reference / relation paths to replace by the documents they name. */
  readonly populate: readonly (readonly string[])[];
  /** Cut `text` fields to this many characters; null when not asked. */
  readonly truncate: number | null;
  /** Serve localizable values as stored (every stored locale, no fallback). */
  readonly raw: boolean;
};

export const LIST_PARAMETERS = ['limit', 'next', 'previous', 'sort', 'fields', 'search_locale', 'return_locales', 'fallback_locales', 'populate', 'truncate_text', 'raw'];
export const ONE_PARAMETERS = ['fields', 'return_locales', 'fallback_locales', 'populate', 'raw'];
export const MAX_POPULATE_DEPTH = 3;

const refuse = (name: string, problem: string): never => {
  throw new DomainError('validation_error', `Invalid query parameter ${name}.`, { [name]: [problem] });
};

/** Every query parameter must be one the endpoint reads: a misspelt one is a 422, never ignored. */
export function refuseUnknownParameters(query: Record<string, unknown>, known: readonly string[], where: boolean): void {
  const unknown = Object.keys(query).filter((name) => !known.includes(name) && !(where && name.startsWith(WHERE_PREFIX)));
  if (unknown.length > 0) {
    throw new DomainError('validation_error', `Unknown query parameter ${unknown.join(', ')}.`, Object.fromEntries(unknown.map((n) => [n, ['is not a parameter of this endpoint']])));
  }
}

const list = (query: Record<string, unknown>, name: string): string[] | undefined => {
  const raw = queryString(query, name);
  if (raw === undefined) return undefined;
  const items = raw.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) refuse(name, 'must be a comma-separated list without empty items');
  return items;
};

/** A dot path that walks object fields of the catalog (locales are not part of it). */
function knownPath(catalog: Catalog, path: readonly string[]): boolean {
  let fields = catalog;
  for (const [i, segment] of path.entries()) {
    const field = fields.get(segment);
    if (!field) return false;
    if (i < path.length - 1 && field.children.size === 0 && !field.reference) return false;
    if (field.reference) return true;
    fields = field.children;
  }
  return true;
}

export function readOptions(query: Record<string, unknown>, locales: Locales, catalog: Catalog): ReadOptions {
  const known = new Set(locales.codes);
  const searchLocale = queryString(query, 'search_locale') ?? locales.default;
  if (!known.has(searchLocale)) refuse('search_locale', `${searchLocale} is not a locale of this environment`);
  const returnLocales = list(query, 'return_locales') ?? locales.codes;
  for (const code of returnLocales) if (!known.has(code)) refuse('return_locales', `${code} is not a locale of this environment`);
  const fields = list(query, 'fields')?.map((f) => f.split('.')) ?? null;
  for (const path of fields ?? []) if (!knownPath(catalog, path)) refuse('fields', `unknown field ${path.join('.')}`);
  const populate = list(query, 'populate')?.map((f) => f.split('.')) ?? [];
  for (const path of populate) {
    if (path.length > MAX_POPULATE_DEPTH) refuse('populate', `${path.join('.')} is deeper than ${MAX_POPULATE_DEPTH} levels`);
    const field = catalog.get(path[0] ?? '');
    if (!field || !field.reference) refuse('populate', `${path[0]} is not a reference or relation field`);
  }
  const truncateRaw = queryString(query, 'truncate_text');
  let truncate: number | null = null;
  if (truncateRaw !== undefined) {
    if (!/^\d+$/.test(truncateRaw) || Number(truncateRaw) < 1 || Number(truncateRaw) > Number.MAX_SAFE_INTEGER) refuse('truncate_text', 'must be a positive integer');
    truncate = Number(truncateRaw);
  }
  const raw = queryBool(query, 'raw', false);
  return { searchLocale, returnLocales: [...new Set(returnLocales)], fallback: queryBool(query, 'fallback_locales', false), fields, populate, truncate, raw };
}
