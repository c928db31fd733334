import type { Embedder } from '../../projections/embedder.js';
import type { Config } from '../config.js';
import { HttpEmbedder } from './http-embedder.js';
import { StaticWordEmbedder, type OnConvert } from './static-embedder.js';

/** The configured embedder: the HTTP provider when `EMBEDDINGS_URL` is set, else the embedded word vectors. */
export function createEmbedder(config: Config['embeddings'], onConvert?: OnConvert): Embedder {
  if (config.url) return new HttpEmbedder({ url: config.url, model: config.model, apiKey: config.apiKey });
  return new StaticWordEmbedder(config.cacheDir, onConvert);
}
