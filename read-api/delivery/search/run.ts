import type { Embedder } from '../../../projections/embedder.js';
import type { SearchIndex, Scored } from '../../../projections/ports.js';
import { boost, fuse, similarEnough } from './rank.js';
import { meaningfulWords } from './stopwords.js';
import type { SearchRequest, TextPart, VectorPart } from './request.js';

/** Most text matches a ranked search considers (the result set is cut there). */
export const TEXT_CANDIDATES = 1000;

export type Scope = { readonly index: SearchIndex; readonly embedder: Embedder; readonly env: string; readonly folder: string; readonly locale: string | null };

function textHits(scope: Scope, text: TextPart, limit: number): Promise<Scored[]> {
  const { phrase, fields, threshold } = text;
  const words = text.words ? meaningfulWords(text.words, scope.locale) : undefined;
  return scope.index.searchText(scope.env, scope.folder, { words, phrase, fields, threshold, locale: scope.locale, limit });
}

const isZero = (vector: Float32Array): boolean => vector.every((x) => x === 0);

async function vectorHits(scope: Scope, vector: VectorPart, limit: number): Promise<Scored[]> {
  const query = vector.kind === 'query' ? (await scope.embedder.embed([vector.query]))[0]! : Float32Array.from(vector.vector);
  // A query of no known word has no direction: nothing is near it.
  if (isZero(query)) return [];
  const fields = vector.kind === 'query' ? vector.fields : [vector.field];
  return scope.index.searchVectors(scope.env, scope.folder, { vector: query, fields, locale: scope.locale, limit });
}

/** Ranked keys, best first, and the rows the index found them at when it gave every one (text mode; docs/decisions/0256). */
export type Ranked = { readonly keys: string[]; readonly rowids: number[] | null };

const rowidsOf = (hits: readonly Scored[]): number[] | null => (hits.every((hit) => hit.rowid !== undefined) ? hits.map((hit) => hit.rowid!) : null);

/**
 * The keys a ranked search returns, best first; null when the request ranks
 * nothing (a text search without find_text or find_phrase lists the collection). `depth`: how many results the
 * caller needs at most (the whole candidate set when it filters or sorts them).
 */
export async function rankedHits(scope: Scope, request: SearchRequest, depth = TEXT_CANDIDATES): Promise<Ranked | null> {
  const { mode, text } = request;
  const textDepth = Math.min(TEXT_CANDIDATES, Math.max(depth, mode === 'hybrid' && request.vector ? request.vector.topK : 0));
  if (mode === 'text') {
    if (!text) return null;
    const hits = await textHits(scope, text, textDepth);
    return { keys: hits.map((hit) => hit.key), rowids: rowidsOf(hits) };
  }
  return { keys: await otherRanked(scope, request, textDepth), rowids: null };
}

async function otherRanked(scope: Scope, request: SearchRequest, textDepth: number): Promise<string[]> {
  const { mode, text, vector } = request;
  if (!vector) return [];
  if (mode === 'vector') return similarEnough(await vectorHits(scope, vector, vector.topK), vector.threshold).map((hit) => hit.key);
  if (!text) return [];
  if (mode === 'hybrid') {
    const [textSide, vectorSide] = await Promise.all([textHits(scope, text, textDepth), vectorHits(scope, vector, vector.topK)]);
    const { vectorWeight, textWeight, rerank } = request.hybrid;
    return fuse(textSide, similarEnough(vectorSide, vector.threshold), { text: textWeight, vector: vectorWeight }, rerank);
  }
  const [textSide, near] = await Promise.all([textHits(scope, text, TEXT_CANDIDATES), vectorHits(scope, vector, request.boost.maxResults)]);
  return boost(textSide, similarEnough(similarEnough(near, vector.threshold), request.boost.threshold), request.boost.factor);
}
