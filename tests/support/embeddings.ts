import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One word-vector cache for every test service and every run on this machine: the package's
 * JSON is converted once (a few seconds), then each service opens the converted file.
 */
export const TEST_EMBEDDINGS_CACHE = join(tmpdir(), 'cms-test-embeddings-cache');
