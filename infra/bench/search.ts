// The search scenario of `npm run bench` (BENCH_SEARCH_RESOURCES=100000): its own service on a
// fresh data directory, a collection with searchable and vectorizable fields, full-text and
// hybrid `_search` latency (p50 / p95) and the service's resident memory.
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cleanup } from './cleanup.js';
import { call, expect } from './http.js';
import { Latency } from './latency.js';
import { Progress } from './progress.js';
import { API_PREFIX, COLLECTION_ALIAS, waitForDelivery } from './seed.js';
import { VOCABULARY } from './search-vocabulary.js';
import { startServiceChild, type Bootstrap } from './service.js';

export type SearchBenchOptions = { readonly resources: number; readonly seconds: number; readonly maxRequests: number; readonly seedConcurrency: number };

/** BENCH_SEARCH_RESOURCES turns the scenario on (it is off by default: seeding 100,000 resources takes minutes). */
export function searchBenchOptions(env: NodeJS.ProcessEnv = process.env): SearchBenchOptions | null {
  const raw = env.BENCH_SEARCH_RESOURCES;
  if (raw === undefined || raw === '') return null;
  const resources = Number(raw);
  if (!Number.isInteger(resources) || resources < 1 || resources > 1_000_000) throw new Error(`BENCH_SEARCH_RESOURCES must be an integer from 1 to 1000000, got ${raw}`);
  const seconds = Number(env.BENCH_SECONDS || 10);
  return { resources, seconds, maxRequests: 5_000, seedConcurrency: 32 };
}

/** A small deterministic generator (mulberry32), so every run searches the same corpus. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words skewed towards the frequent end of the vocabulary, like real text. */
const words = (next: () => number, n: number): string => Array.from({ length: n }, () => VOCABULARY[Math.floor(VOCABULARY.length * next() ** 2)]).join(' ');

export const searchDocument = (i: number) => {
  const next = random(i + 1);
  return { title: words(next, 6), body: words(next, 60) };
};

async function setup(b: Bootstrap): Promise<string> {
  const v1 = `${b.base_url}/v1/${b.environment}`;
  const post = <T>(status: number, what: string, path: string, body: unknown) => expect<T>(status, what, `${v1}${path}`, { method: 'POST', token: b.management_token, body });
  const collection = await post<{ key: string }>(201, 'create collection', '/collections/tree/', { name: 'Articles', alias: COLLECTION_ALIAS });
  const version = await post<{ key: string }>(201, 'create model version', `/collections/${collection.key}/model/versions/`, { name: 'v1' });
  for (const field of [
    { key: 'title', type: 'string', required: true, searchable: true, vectorizable: true },
    { key: 'body', type: 'text', required: true, searchable: true, vectorizable: true },
  ]) {
    await post(201, `add field ${field.key}`, `/collections/${collection.key}/model/versions/${version.key}/schema/tree/`, field);
  }
  await post(200, 'publish model version', `/collections/${collection.key}/model/versions/${version.key}/publish/`, {});
  const api = await post<{ key: string }>(201, 'create delivery API', '/api/', { name: 'Site', prefix: API_PREFIX });
  await post(201, 'connect collection', `/api/${api.key}/collections/`, { folder: collection.key, allowed_methods: ['get_many', 'get_one'] });
  return collection.key;
}

async function seed(b: Bootstrap, collection: string, o: SearchBenchOptions): Promise<string[]> {
  const url = `${b.base_url}/v1/${b.environment}/collections/${collection}/resources/?wait=false`;
  const keys = new Array<string>(o.resources);
  const progress = new Progress('seeding search corpus', o.resources);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < o.resources) {
      const i = next++;
      const answer = await call(url, { method: 'POST', token: b.management_token, body: { data: searchDocument(i) }, timeoutMs: 30_000 });
      const key = (answer.body as { key?: unknown } | null)?.key;
      if (answer.status !== 202 || typeof key !== 'string') throw new Error(`seeding resource ${i} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      keys[i] = key;
      progress.update(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.seedConcurrency, o.resources) }, worker));
  progress.end();
  return keys;
}

/** Requests one after another (bounded in count and time); the latency of each, client side. */
async function timed(o: SearchBenchOptions, send: (i: number) => Promise<number>): Promise<{ p50: number; p95: number; requests: number }> {
  for (let i = 0; i < 20; i++) await send(i);
  const latency = new Latency();
  const deadline = performance.now() + o.seconds * 1000;
  let i = 0;
  while (i < o.maxRequests && performance.now() < deadline) {
    const started = performance.now();
    const status = await send(i++);
    if (status !== 200) throw new Error(`a search answered ${status}`);
    latency.record(performance.now() - started);
  }
  return { p50: latency.quantile(0.5), p95: latency.quantile(0.95), requests: latency.samples };
}

/** Resident and peak resident memory of a process, in MB (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Runs the scenario; `baseline` is the bare node:http server of the same run, timed the same way for a ratio. */
export async function searchScenario(cleanup: Cleanup, root: string, baseline: string, o: SearchBenchOptions, log: (line: string) => void): Promise<void> {
  const dataDir = cleanup.dir(await mkdtemp(join(tmpdir(), 'cms-bench-search-')));
  process.env.EMBEDDINGS_CACHE_DIR ||= join(tmpdir(), 'cms-bench-embeddings-cache');
  const service = await startServiceChild(cleanup, root, dataDir);
  const b = service.bootstrap;
  const collection = await setup(b);
  const started = performance.now();
  const keys = await seed(b, collection, o);
  const indexed = await waitForDelivery(b, keys, 120_000 + o.resources * 20);
  log(`search: ${o.resources} resources (title 6 words, body 60 words, both searchable and vectorizable) seeded and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s (${indexed.toFixed(1)} s after the last POST)`);

  const searchUrl = `${b.delivery_url}/${API_PREFIX}/${COLLECTION_ALIAS}/_search?limit=10`;
  const query = (i: number) => {
    const next = random(1_000_000 + i);
    return { text: words(next, 2), vector: words(next, 4) };
  };
  const post = async (body: unknown) => (await call(searchUrl, { method: 'POST', body })).status;
  const bare = await timed(o, async () => (await call(`${baseline}/`)).status);
  const text = await timed(o, (i) => post({ find_text: { query: query(i).text } }));
  const hybrid = await timed(o, (i) => post({ search_mode: 'hybrid', find_text: { query: query(i).text }, vector_search: { query: query(i).vector } }));
  const memory = memoryOf(service.child.pid ?? -1);

  const row = (name: string, m: { p50: number; p95: number; requests: number }) =>
    `  ${name.padEnd(28)} p50 ${m.p50.toFixed(2).padStart(7)} ms   p95 ${m.p95.toFixed(2).padStart(7)} ms   (${m.requests} requests, p50 ${(m.p50 / bare.p50).toFixed(1)}x bare http)`;
  log('');
  log(`search on ${o.resources} resources, one request at a time, limit=10:`);
  log(row('bare http get-one (baseline)', bare));
  log(row('full text (2 words)', text));
  log(row('hybrid (2 words + 4 words)', hybrid));
  log(memory ? `  service memory: RSS ${memory.rss.toFixed(0)} MB now, peak ${memory.peak.toFixed(0)} MB (goal: under 400 MB)` : '  service memory: not readable on this platform');
  log(`  goal hybrid p95 under 25 ms: ${hybrid.p95 < 25 ? 'met' : 'NOT met'}`);
}
