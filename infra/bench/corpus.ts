// The search scenario's corpus service: seeded once into a fresh data directory, or, with
// BENCH_DATA_DIR, seeded once into that directory and reused by later runs (seeding 100,000
// resources takes minutes).
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive, type Cleanup } from './cleanup.js';
import { call, sleep } from './http.js';
import { API_PREFIX, COLLECTION_ALIAS } from './seed.js';
import { buildService, freePorts, spawnService, startServiceChild, type Bootstrap, type ServiceChild } from './service.js';

/** Changes whenever the corpus's schema or documents change, so an older kept corpus is not reused. */
export const CORPUS_VERSION = 2;
const MARKER = 'bench-corpus.json';
const START_TIMEOUT_MS = 5 * 60_000;

export type Corpus = { readonly version: number; readonly resources: number; readonly collection: string };

export type CorpusService = {
  readonly child: ServiceChild['child'];
  /** `{origin}/{environment}`, on this run's port. */
  readonly deliveryUrl: string;
  /** Set when the corpus is seeded by this run (management is needed for it); null when reused. */
  readonly bootstrap: Bootstrap | null;
  readonly reused: Corpus | null;
  readonly dataDir: string;
};

function keptCorpus(dataDir: string, resources: number): Corpus | null {
  try {
    const corpus = JSON.parse(readFileSync(join(dataDir, MARKER), 'utf8')) as Corpus;
    return corpus.version === CORPUS_VERSION && corpus.resources === resources ? corpus : null;
  } catch {
    return null;
  }
}

/** Starts the service on a kept, seeded corpus; resolves once its delivery list answers. */
async function restartOnKept(cleanup: Cleanup, root: string, dataDir: string, corpus: Corpus): Promise<CorpusService> {
  await buildService(root);
  const ports = await freePorts();
  const { child, output } = spawnService(cleanup, root, dataDir, ports);
  const bootstrap = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as Bootstrap;
  const deliveryUrl = `http://127.0.0.1:${ports.deliveryPort}/${bootstrap.environment}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!alive(child)) throw new Error(`the corpus service exited while starting:\n${output.tail.join('\n')}`);
    const answer = await call(`${deliveryUrl}/${API_PREFIX}/${COLLECTION_ALIAS}/?limit=1`, { timeoutMs: 5_000 }).catch(() => null);
    if (answer?.status === 200) return { child, deliveryUrl, bootstrap: null, reused: corpus, dataDir };
    await sleep(200);
  }
  throw new Error(`the corpus service did not answer within ${START_TIMEOUT_MS / 1000} s:\n${output.tail.join('\n')}`);
}

/**
 * The corpus service: on a kept corpus of `resources` in `keptDir` when there is one, else on
 * a new data directory (`keptDir`, which must then be empty, or a temporary one) to be seeded
 * by the caller, who calls `markSeeded` once it is.
 */
export async function startCorpusService(cleanup: Cleanup, root: string, keptDir: string | null, resources: number): Promise<CorpusService> {
  if (keptDir) {
    const corpus = keptCorpus(keptDir, resources);
    if (corpus) return restartOnKept(cleanup, root, keptDir, corpus);
    await mkdir(keptDir, { recursive: true });
    if ((await readdir(keptDir)).length > 0) {
      throw new Error(`BENCH_DATA_DIR ${keptDir} holds no corpus of ${resources} resources (version ${CORPUS_VERSION}) and is not empty: empty it or name another`);
    }
  }
  const dataDir = keptDir ?? cleanup.dir(await mkdtemp(join(tmpdir(), 'cms-bench-search-')));
  const service = await startServiceChild(cleanup, root, dataDir);
  return { child: service.child, deliveryUrl: service.bootstrap.delivery_url, bootstrap: service.bootstrap, reused: null, dataDir };
}

/** Records that `dataDir` now holds the whole seeded corpus (only for a kept directory). */
export async function markSeeded(dataDir: string, corpus: Omit<Corpus, 'version'>): Promise<void> {
  if (!existsSync(join(dataDir, 'bootstrap.json'))) return;
  await writeFile(join(dataDir, MARKER), `${JSON.stringify({ version: CORPUS_VERSION, ...corpus })}\n`);
}
