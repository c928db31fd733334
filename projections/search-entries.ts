import type { Embedder } from './embedder.js';
import type { SearchField } from './search-fields.js';
import type { SearchEntries, SearchText, SearchVector } from './ports.js';

const TEXT_TYPES = new Set(['string', 'text']);

/** Values at a dot path; arrays on the way are walked into. */
function valuesAt(value: unknown, segments: readonly string[]): unknown[] {
  if (segments.length === 0) return value === undefined || value === null ? [] : [value];
  if (Array.isArray(value)) return value.flatMap((item) => valuesAt(item, segments));
  if (!value || typeof value !== 'object') return [];
  const [head, ...rest] = segments;
  return Object.prototype.hasOwnProperty.call(value, head!) ? valuesAt((value as Record<string, unknown>)[head!], rest) : [];
}

/** A field's values per locale: a localizable field holds one per locale code, any other answers every locale (''). */
function byLocale(field: SearchField, data: Record<string, unknown>): [locale: string, value: unknown][] {
  const segments = field.path.split('.');
  if (!field.localizable) return valuesAt(data, segments).map((value) => ['', value]);
  const parent = valuesAt(data, segments.slice(0, -1));
  const last = segments[segments.length - 1]!;
  const out: [string, unknown][] = [];
  for (const holder of parent) {
    const localized = holder && typeof holder === 'object' ? (holder as Record<string, unknown>)[last] : undefined;
    if (!localized || typeof localized !== 'object' || Array.isArray(localized)) continue;
    for (const [locale, value] of Object.entries(localized)) if (value !== null && value !== undefined) out.push([locale, value]);
  }
  return out;
}

const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The texts of a document to index for full text and to embed, one per field and locale. */
export function searchTexts(fields: readonly SearchField[], data: Record<string, unknown>): { texts: SearchText[]; toEmbed: SearchText[] } {
  const texts: SearchText[] = [];
  const toEmbed: SearchText[] = [];
  for (const field of fields) {
    if (!TEXT_TYPES.has(field.type) || (!field.searchable && !field.vectorizable)) continue;
    const perLocale = new Map<string, string[]>();
    for (const [locale, value] of byLocale(field, data)) perLocale.set(locale, [...(perLocale.get(locale) ?? []), ...strings(value)]);
    for (const [locale, parts] of perLocale) {
      const text = parts.join('\n').trim();
      if (!text) continue;
      if (field.searchable) texts.push({ field: field.path, locale, text });
      if (field.vectorizable) toEmbed.push({ field: field.path, locale, text });
    }
  }
  return { texts, toEmbed };
}

/** Custom `vector` fields' values of the declared width (others are left out). */
export function customVectors(fields: readonly SearchField[], data: Record<string, unknown>): SearchVector[] {
  const out: SearchVector[] = [];
  for (const field of fields) {
    if (field.type !== 'vector') continue;
    for (const [locale, value] of byLocale(field, data)) {
      if (!Array.isArray(value) || value.length !== field.dimensions || !value.every((x) => typeof x === 'number' && Number.isFinite(x))) continue;
      out.push({ field: field.path, locale, vector: Float32Array.from(value as number[]) });
    }
  }
  return out;
}

/** The field name of a document's combined embedding: what `vector_search` without `fields` compares with. */
export const ALL_FIELDS = '*';

/**
 * One embedding per locale for the whole document: the normalised mean of its vectorizable
 * fields' embeddings in that locale and of its non-localizable ones (locale '' alone when it has
 * no localized text). Searching every field then scans one vector per document.
 */
export function combinedVectors(vectors: readonly SearchVector[]): SearchVector[] {
  if (vectors.length === 0) return [];
  const locales = new Set(vectors.map((v) => v.locale).filter((l) => l !== ''));
  const groups = locales.size === 0 ? [''] : [...locales];
  const out: SearchVector[] = [];
  for (const locale of groups) {
    const members = vectors.filter((v) => v.locale === locale || v.locale === '');
    const sum = new Float32Array(members[0]!.vector.length);
    for (const member of members) member.vector.forEach((x, i) => (sum[i]! += x));
    const norm = Math.hypot(...sum);
    if (norm === 0) continue;
    out.push({ field: ALL_FIELDS, locale, vector: sum.map((x) => x / norm) });
  }
  return out;
}

/** Everything search keeps of a published payload: texts, embeddings of the vectorizable ones (and their combination), custom vectors. */
export async function searchEntries(fields: readonly SearchField[], data: Record<string, unknown>, embedder: Embedder): Promise<SearchEntries> {
  const { texts, toEmbed } = searchTexts(fields, data);
  const embedded = toEmbed.length === 0 ? [] : await embedder.embed(toEmbed.map((t) => t.text));
  const vectors = toEmbed.map((t, i) => ({ field: t.field, locale: t.locale, vector: embedded[i]! }));
  return { texts, vectors: [...vectors, ...combinedVectors(vectors), ...customVectors(fields, data)] };
}
