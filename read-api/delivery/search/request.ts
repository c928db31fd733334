import type { SearchField } from '../../../projections/search-fields.js';
import { ALL_FIELDS } from '../../../projections/search-entries.js';
import { boundWhere } from '../query/bounds.js';
import { checkBodyShape, invalid } from './body-schema.js';

export type SearchMode = 'text' | 'vector' | 'vector_boosted' | 'hybrid';

export type TextPart = { readonly words?: readonly string[]; readonly phrase?: readonly string[]; readonly fields: readonly string[]; readonly threshold?: number };

export type VectorPart =
  | { readonly kind: 'query'; readonly query: string; readonly fields: readonly string[]; readonly topK: number; readonly threshold: number | null }
  | { readonly kind: 'field'; readonly field: string; readonly vector: readonly number[]; readonly topK: number; readonly threshold: number | null };

export type SearchRequest = {
  readonly mode: SearchMode;
  readonly text: TextPart | null;
  readonly vector: VectorPart | null;
  readonly hybrid: { readonly vectorWeight: number; readonly textWeight: number; readonly rerank: boolean };
  readonly boost: { readonly factor: number; readonly threshold: number | null; readonly maxResults: number };
  readonly where: unknown;
  /** The body's `join`, parsed against the API's connections by the handler (docs/decisions/0046). */
  readonly join: unknown;
  readonly sort: readonly string[] | null;
  readonly fields: readonly string[] | null;
  readonly limit: number | null;
  /** Results skipped before the first page (a cursor carries its own position). */
  readonly offset: number;
};

export const DEFAULT_TOP_K = 10;
/** `top_k` and `max_boost_results` above this are served as this many (docs/decisions/0172). */
export const MAX_TOP_K = 1000;
export const MAX_QUERY_CHARS = 1000;
/** The product's SDKs check the weights' sum with this tolerance. */
const WEIGHT_TOLERANCE = 1e-6;

type Body = {
  search_mode?: SearchMode;
  find_text?: { query: string; fields?: string[]; threshold?: number };
  find_phrase?: { query: string; fields?: string[] };
  vector_search?: { query: string; fields?: string[]; top_k?: number; similarity_threshold?: number; threshold?: number };
  vector_field_search?: { field: string; query_vector: number[]; top_k?: number; similarity_threshold?: number };
  hybrid_config?: { vector_weight?: number; text_weight?: number; rerank_results?: boolean };
  vector_boost_config?: { boost_factor?: number; similarity_threshold?: number; max_boost_results?: number };
  where?: unknown;
  sort?: string[];
  fields?: string[];
  limit?: number;
  offset?: number;
  join?: unknown;
};

/** Words as the full-text index splits them (letters and digits, lower-cased). */
export const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

class Refusals {
  readonly detail = new Map<string, string[]>();
  add(field: string, message: string): void {
    this.detail.set(field, [...(this.detail.get(field) ?? []), message]);
  }
}

/** Rules between keys (product facts 4.8): which parts each mode needs and refuses. */
function checkMode(body: Body, mode: SearchMode, no: Refusals): void {
  const hasText = body.find_text !== undefined || body.find_phrase !== undefined;
  const hasVector = body.vector_search !== undefined || body.vector_field_search !== undefined;
  if (body.find_text && body.find_phrase) no.add('find_phrase', 'cannot be combined with find_text');
  if (body.vector_search && body.vector_field_search) no.add('vector_field_search', 'cannot be combined with vector_search');
  if (mode === 'text') {
    if (body.vector_search) no.add('vector_search', 'is not allowed in search_mode text');
    if (body.vector_field_search) no.add('vector_field_search', 'is not allowed in search_mode text');
  }
  if (mode === 'vector') {
    if (!hasVector) no.add('vector_search', 'is required in search_mode vector (or vector_field_search)');
    if (body.find_text) no.add('find_text', 'is not allowed in search_mode vector');
    if (body.find_phrase) no.add('find_phrase', 'is not allowed in search_mode vector');
  }
  if (mode === 'vector_boosted') {
    if (!hasVector) no.add('vector_search', 'is required in search_mode vector_boosted (or vector_field_search)');
    if (!hasText) no.add('find_text', 'is required in search_mode vector_boosted (or find_phrase)');
  }
  if (mode === 'hybrid') {
    if (!body.vector_search) no.add('vector_search', 'is required in search_mode hybrid');
    if (body.vector_field_search) no.add('vector_field_search', 'is not allowed in search_mode hybrid');
    if (!hasText) no.add('find_text', 'is required in search_mode hybrid (or find_phrase)');
  }
  if (body.hybrid_config && mode !== 'hybrid') no.add('hybrid_config', 'applies to search_mode hybrid only');
  if (body.vector_boost_config && mode !== 'vector_boosted') no.add('vector_boost_config', 'applies to search_mode vector_boosted only');
}

/** Named fields must exist in the collection's published schema with the right flag. */
function checkFields(names: readonly string[] | undefined, at: string, fields: readonly SearchField[], ok: (f: SearchField) => boolean, what: string, no: Refusals): string[] {
  const chosen = fields.filter(ok).map((f) => f.path);
  if (!names) return chosen;
  names.forEach((name, i) => {
    const field = fields.find((f) => f.path === name);
    if (!field) no.add(`${at}.${i}`, `is not a field of the collection: ${name}`);
    else if (!ok(field)) no.add(`${at}.${i}`, `is not ${what}: ${name}`);
  });
  return [...new Set(names)];
}

/** With no field named and none flagged in the collection, the search could only find nothing: say which fields to flag. */
function requireFlagged(at: string, named: readonly string[] | undefined, fields: readonly SearchField[], ok: (f: SearchField) => boolean, flag: string, candidates: (f: SearchField) => boolean, no: Refusals): void {
  if (named !== undefined || fields.some(ok)) return;
  const names = fields.filter(candidates).map((f) => f.path);
  const hint = names.length > 0 ? `mark one of its fields ${flag} (${names.join(', ')}) in a new schema version and publish it` : `add a field marked ${flag} to its schema`;
  no.add(at, `finds nothing: the collection has no ${flag} field; ${hint}`);
}

const isText = (f: SearchField): boolean => f.type === 'string' || f.type === 'text';

function textPart(body: Body, fields: readonly SearchField[], no: Refusals): TextPart | null {
  const searchable = (f: SearchField) => f.searchable && isText(f);
  const part = body.find_text ? 'find_text' : body.find_phrase ? 'find_phrase' : null;
  if (part !== null) requireFlagged(part, body[part]?.fields, fields, searchable, 'searchable', isText, no);
  if (body.find_text) {
    const found = words(body.find_text.query);
    if (found.length === 0) no.add('find_text.query', 'holds no word to search for');
    const names = checkFields(body.find_text.fields, 'find_text.fields', fields, searchable, 'a searchable text field', no);
    return { words: found, fields: names, threshold: body.find_text.threshold };
  }
  if (body.find_phrase) {
    const found = words(body.find_phrase.query);
    if (found.length === 0) no.add('find_phrase.query', 'holds no word to search for');
    const names = checkFields(body.find_phrase.fields, 'find_phrase.fields', fields, searchable, 'a searchable text field', no);
    return { phrase: found, fields: names };
  }
  return null;
}

function vectorPart(body: Body, fields: readonly SearchField[], no: Refusals): VectorPart | null {
  if (body.vector_search) {
    requireFlagged('vector_search', body.vector_search.fields, fields, (f) => f.vectorizable, 'vectorizable', isText, no);
    const query = body.vector_search.query.trim().slice(0, MAX_QUERY_CHARS);
    if (query.length < 3) no.add('vector_search.query', 'must have at least 3 characters');
    const names = body.vector_search.fields ? checkFields(body.vector_search.fields, 'vector_search.fields', fields, (f) => f.vectorizable, 'a vectorizable field', no) : [ALL_FIELDS];
    const { top_k: topK = DEFAULT_TOP_K, similarity_threshold: similarity, threshold: alias } = body.vector_search;
    if (similarity !== undefined && alias !== undefined) no.add('vector_search.threshold', 'cannot be combined with similarity_threshold');
    const threshold = similarity ?? alias ?? null;
    return { kind: 'query', query, fields: names, topK: Math.min(topK, MAX_TOP_K), threshold };
  }
  if (body.vector_field_search) {
    const { field: name, query_vector: vector, top_k: topK = DEFAULT_TOP_K, similarity_threshold: threshold = null } = body.vector_field_search;
    const field = fields.find((f) => f.path === name);
    if (!field) no.add('vector_field_search.field', `is not a field of the collection: ${name}`);
    else if (field.type !== 'vector') no.add('vector_field_search.field', `is not a vector field: ${name}`);
    else if (field.dimensions !== vector.length) no.add('vector_field_search.query_vector', `has ${vector.length} dimensions, the field ${name} has ${field.dimensions}`);
    if (!vector.every(Number.isFinite)) no.add('vector_field_search.query_vector', 'must hold finite numbers');
    return { kind: 'field', field: name, vector, topK: Math.min(topK, MAX_TOP_K), threshold };
  }
  return null;
}

function hybridConfig(body: Body, no: Refusals): SearchRequest['hybrid'] {
  const config = body.hybrid_config ?? {};
  // Each weight has its own default (product facts, the SDKs): sending one alone keeps the other's default.
  const vectorWeight = config.vector_weight ?? 0.6;
  const textWeight = config.text_weight ?? 0.4;
  if (Math.abs(vectorWeight + textWeight - 1) > WEIGHT_TOLERANCE) no.add('hybrid_config', 'vector_weight and text_weight (defaults 0.6 and 0.4) must sum to 1');
  return { vectorWeight, textWeight, rerank: config.rerank_results ?? true };
}

/**
 * A `_search` body as a typed request, checked against the collection's published fields
 * (`fields` of its active schema version; empty when none is published). Every refusal is one
 * 422 validation_error naming each offending field.
 */
export function parseSearchRequest(raw: unknown, fields: readonly SearchField[]): SearchRequest {
  const body = checkBodyShape(raw) as Body;
  boundWhere(body.where);
  const no = new Refusals();
  const mode = body.search_mode ?? 'text';
  checkMode(body, mode, no);
  const text = textPart(body, fields, no);
  const vector = vectorPart(body, fields, no);
  const hybrid = hybridConfig(body, no);
  const boostConfig = body.vector_boost_config ?? {};
  const known = new Set(fields.map((f) => f.path.split('.')[0]!));
  (body.fields ?? []).forEach((name, i) => {
    if (!known.has(name.split('.')[0]!)) no.add(`fields.${i}`, `is not a field of the collection: ${name}`);
  });
  if (no.detail.size > 0) throw invalid(no.detail);
  return {
    mode,
    text,
    vector,
    hybrid,
    boost: { factor: boostConfig.boost_factor ?? 1.5, threshold: boostConfig.similarity_threshold ?? null, maxResults: Math.min(boostConfig.max_boost_results ?? 20, MAX_TOP_K) },
    where: body.where,
    join: body.join,
    sort: body.sort ?? null,
    fields: body.fields ?? null,
    limit: body.limit === undefined ? null : Math.min(body.limit, 100),
    offset: body.offset ?? 0,
  };
}
