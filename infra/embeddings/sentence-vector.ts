import type { WordVector } from './word-vectors-file.js';

/** SIF smoothing: a word of corpus probability p weighs a / (a + p) (Arora et al., 2017). */
const SIF_A = 1e-3;
const EULER_GAMMA = 0.5772156649;

/** The weight of a word from its frequency rank, estimating its probability with Zipf's law over `vocabulary` words. */
export function sifWeight(rank: number, vocabulary: number): number {
  const probability = 1 / ((rank + 1) * (Math.log(vocabulary) + EULER_GAMMA));
  return SIF_A / (SIF_A + probability);
}

/** The SIF-weighted mean of the word vectors, scaled to unit length (all zeros when no word is known). */
export function sentenceVector(words: readonly (WordVector | null)[], dimensions: number, vocabulary: number): Float32Array {
  const sum = new Float32Array(dimensions);
  for (const word of words) {
    if (!word) continue;
    const weight = sifWeight(word.rank, vocabulary);
    for (let i = 0; i < dimensions; i++) sum[i]! += weight * word.vector[i]!;
  }
  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += sum[i]! * sum[i]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < dimensions; i++) sum[i]! /= norm;
  return sum;
}
