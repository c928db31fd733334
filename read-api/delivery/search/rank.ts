import type { Scored } from '../../../projections/ports.js';

/** The reciprocal-rank-fusion constant of Cormack et al. (2009). */
export const RRF_K = 60;

/** Vector hits whose cosine similarity (1 - distance) reaches the threshold. */
export const similarEnough = (hits: readonly Scored[], threshold: number | null): Scored[] =>
  threshold === null ? [...hits] : hits.filter((hit) => 1 - hit.score >= threshold);

/**
 * Hybrid ranking: weighted reciprocal rank fusion of the text and vector rankings, each
 * document scoring `weight / (RRF_K + rank)` in each list it is in. Without rerank the text
 * ranking is kept and vector-only hits follow in their own order.
 */
export function fuse(text: readonly Scored[], vector: readonly Scored[], weights: { text: number; vector: number }, rerank: boolean): string[] {
  if (!rerank) {
    const seen = new Set(text.map((hit) => hit.key));
    return [...text.map((hit) => hit.key), ...vector.map((hit) => hit.key).filter((key) => !seen.has(key))];
  }
  const scores = new Map<string, number>();
  const add = (hits: readonly Scored[], weight: number) =>
    hits.forEach((hit, rank) => scores.set(hit.key, (scores.get(hit.key) ?? 0) + weight / (RRF_K + rank + 1)));
  add(text, weights.text);
  add(vector, weights.vector);
  return [...scores.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([key]) => key);
}

/**
 * Vector-boosted ranking: the text matches only, by BM25 score, the score multiplied by
 * `factor` for documents among the nearest vector hits.
 */
export function boost(text: readonly Scored[], near: readonly Scored[], factor: number): string[] {
  const boosted = new Set(near.map((hit) => hit.key));
  return text
    .map((hit) => ({ key: hit.key, score: boosted.has(hit.key) ? hit.score * factor : hit.score }))
    .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1))
    .map((hit) => hit.key);
}
