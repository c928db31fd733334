import { defaultWordVectorsCache } from '../../infra/embeddings/word-vectors-cache.js';

/**
 * The word-vector cache every test service uses: the default one, which `npm install` prepares
 * (docs/decisions/0349), so no test converts the package's JSON; if it is missing, the first test
 * that needs it converts it once for every later run.
 */
export const TEST_EMBEDDINGS_CACHE = defaultWordVectorsCache();
