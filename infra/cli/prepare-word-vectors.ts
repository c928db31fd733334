import { loadConfig } from '../config.js';
import { preparedWordVectors } from '../embeddings/static-embedder.js';

// `npm install` (the prepare script, after the build) converts the embedded model's word vectors
// into EMBEDDINGS_CACHE_DIR (default: node_modules/.cache/eventsourced-cms) once, so that neither a
// start nor the first vector search does (docs/decisions/0349). Nothing to do when they are there
// or when EMBEDDINGS_URL names another model.
const config = loadConfig();
if (config.embeddings.url) process.exit(0);
const started = performance.now();
let converted = false;
preparedWordVectors(config.embeddings.cacheDir, (target) => {
  converted = true;
  process.stdout.write(`preparing the embedded model's word vectors into ${target} (once)\n`);
})
  .then((target) => {
    if (converted) process.stdout.write(`prepared ${target} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  })
  .catch((error: unknown) => {
    process.stderr.write(`preparing the word vectors failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
