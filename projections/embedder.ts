/**
 * Turns texts into unit-length vectors of one model. The delivery index calls it when a
 * revision with `vectorizable` fields is published, and the search API for `vector_search`.
 */
export interface Embedder {
  /** Names the model; vectors of different models are never compared. */
  readonly model: string;
  /** One vector per text, in order, each of the model's width and L2 norm 1 (or all zeros for no known word). */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}
