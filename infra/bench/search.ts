// The search scenario of `npm run bench` (BENCH_SEARCH_RESOURCES=100000): its own service on a
// fresh data directory, a collection with searchable and vectorizable fields, full-text and
// hybrid `_search` latency (p50 / p95) and the service's resident memory.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stopChild, type Cleanup } from './cleanup.js';
import { markSeeded, startCorpusService, type CorpusService } from './corpus.js';
import { cpuSeconds } from './cpu-time.js';
import { effectiveSort } from '../../projections/delivery-query.js';
import { encodeCursor } from '../../read-api/delivery/query/cursor.js';
import { call, expect } from './http.js';
import { Latency } from './latency.js';
import type { Measurement, Target } from './load.js';
import { Progress } from './progress.js';
import { API_PREFIX, COLLECTION_ALIAS, waitForDelivery } from './seed.js';
import { VOCABULARY } from './search-vocabulary.js';
import type { Bootstrap } from './service.js';
import type { Figure, Row } from './table.js';
import { withServiceCpu } from './search-cpu.js';
import { seededRandom } from './seeded-random.js';

export type SearchBenchOptions = {
  readonly resources: number;
  readonly seconds: number;
  readonly maxRequests: number;
  readonly seedConcurrency: number;
  /** BENCH_DATA_DIR: where the corpus is seeded once and reused by later runs; null: a temporary directory. */
  readonly dataDir: string | null;
  /** BENCH_SEARCH_LISTS_ONLY=1: only the two list rates (for alternating runs of the list read path). */
  readonly listsOnly: boolean;
  /** BENCH_SEARCH_TEXT_ONLY=1: only the full-text rate and latency (for alternating runs of the full-text path). */
  readonly textOnly: boolean;
};

/** BENCH_SEARCH_RESOURCES turns the scenario on (it is off by default: seeding 100,000 resources takes minutes). */
export function searchBenchOptions(env: NodeJS.ProcessEnv = process.env): SearchBenchOptions | null {
  const raw = env.BENCH_SEARCH_RESOURCES;
  if (raw === undefined || raw === '') return null;
  const resources = Number(raw);
  if (!Number.isInteger(resources) || resources < 1 || resources > 1_000_000) throw new Error(`BENCH_SEARCH_RESOURCES must be an integer from 1 to 1000000, got ${raw}`);
  const seconds = Number(env.BENCH_SECONDS || 10);
  const listsOnly = env.BENCH_SEARCH_LISTS_ONLY === '1';
  const textOnly = env.BENCH_SEARCH_TEXT_ONLY === '1';
  return { resources, seconds, maxRequests: 5_000, seedConcurrency: 32, dataDir: env.BENCH_DATA_DIR ? resolve(env.BENCH_DATA_DIR) : null, listsOnly, textOnly };
}

const random = seededRandom;

/** Words skewed towards the frequent end of the vocabulary, like real text. */
const words = (next: () => number, n: number): string => Array.from({ length: n }, () => VOCABULARY[Math.floor(VOCABULARY.length * next() ** 2)]).join(' ');

/** The i-th query of the search rates and latencies: two words for full text, four for the vector side. */
export const searchQuery = (i: number) => {
  const next = random(1_000_000 + i);
  return { text: words(next, 2), vector: words(next, 4) };
};

export const searchDocument = (i: number) => {
  const next = random(i + 1);
  return { title: words(next, 6), body: words(next, 60), views: i * 13, published: i % 2 === 0 };
};

async function setup(b: Bootstrap): Promise<string> {
  const v1 = `${b.base_url}/v1/${b.environment}`;
  const post = <T>(status: number, what: string, path: string, body: unknown) => expect<T>(status, what, `${v1}${path}`, { method: 'POST', token: b.management_token, body });
  const collection = await post<{ key: string }>(201, 'create collection', '/collections/tree/', { name: 'Articles', alias: COLLECTION_ALIAS });
  const version = await post<{ key: string }>(201, 'create model version', `/collections/${collection.key}/model/versions/`, { name: 'v1' });
  for (const field of [
    { key: 'title', type: 'string', required: true, searchable: true, vectorizable: true },
    { key: 'body', type: 'text', required: true, searchable: true, vectorizable: true },
    { key: 'views', type: 'integer', required: true },
    { key: 'published', type: 'boolean', required: true },
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
async function timed(o: SearchBenchOptions, send: (i: number) => Promise<number>, warm?: () => Promise<void>): Promise<{ p50: number; p95: number; requests: number; refused: number }> {
  for (let i = 0; i < 20; i++) await send(i);
  await warm?.();
  const latency = new Latency();
  let refused = 0;
  const deadline = performance.now() + o.seconds * 1000;
  let i = 0;
  while (i < o.maxRequests && performance.now() < deadline) {
    const started = performance.now();
    const status = await send(i++);
    // 503: past QUERY_TIMEOUT_MS (docs/decisions/0339), timed and counted; anything else stops the run.
    if (status === 503) refused += 1;
    else if (status !== 200) throw new Error(`a search answered ${status}`);
    latency.record(performance.now() - started);
  }
  return { p50: latency.quantile(0.5), p95: latency.quantile(0.95), requests: latency.samples, refused };
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

export type SearchContext = {
  readonly cleanup: Cleanup;
  readonly root: string;
  /** The bare node:http server of the same run and its list-page run: what the rates divide by. */
  readonly baseline: string;
  readonly listBaseline: Measurement;
  /** Warm-up then a measured autocannon run (BENCH_SECONDS, BENCH_CONNECTIONS). */
  measure(target: Target): Promise<Measurement>;
  log(line: string): void;
};

/** The filter of the filtered-list row: about half of the documents match (searchDocument). */
const LIST_FILTER = 'where__published__eq=true&where__views__gte=1000';

/**
 * A `next` cursor before every document (created_at "0") with a key of its own: each request of
 * the unfiltered row is a new address (never a remembered answer) and still the collection's
 * first page, the page the filtered row reads from.
 */
const firstPageCursor = (n: number): string => encodeCursor({ values: ['0'], key: String(n) }, effectiveSort({}));

/** A rate and the service's CPU time per request over it (warm-up included: `sent` counts every request made). */
async function measureWithCpu(
  ctx: SearchContext,
  pid: number | undefined,
  target: Target,
  sent: () => number,
): Promise<{ row: Row; cpu: number | null; mainCpu: number | null }> {
  const before = pid === undefined ? null : await cpuSeconds(pid);
  const count = sent();
  const m = await ctx.measure(target);
  const after = pid === undefined ? null : await cpuSeconds(pid);
  const requests = sent() - count;
  const per = (of: 'process' | 'main'): number | null => (before && after && requests > 0 ? ((after[of] - before[of]) * 1e6) / requests : null);
  return { row: { m, baseline: ctx.listBaseline }, cpu: per('process'), mainCpu: per('main') };
}

/**
 * Runs the scenario: request rates of a filtered list with a new query each request and of
 * full-text `_search` with a new query each request (ratios to the bare server's list run),
 * full-text and hybrid latency one request at a time, and the service's resident memory.
 */
export async function searchScenario(ctx: SearchContext, o: SearchBenchOptions): Promise<{ rows: Row[]; figures: Figure[] }> {
  process.env.EMBEDDINGS_CACHE_DIR ||= join(tmpdir(), 'cms-bench-embeddings-cache');
  const service = await startCorpusService(ctx.cleanup, ctx.root, o.dataDir, o.resources);
  try {
    return await measureCorpus(ctx, o, service);
  } finally {
    // Stopped once measured: the scenarios after it (the writes among them) run beside the main service alone.
    await stopChild(service.child);
  }
}

async function measureCorpus(ctx: SearchContext, o: SearchBenchOptions, service: CorpusService): Promise<{ rows: Row[]; figures: Figure[] }> {
  if (service.bootstrap) {
    const b = service.bootstrap;
    const collection = await setup(b);
    const started = performance.now();
    const keys = await seed(b, collection, o);
    const indexed = await waitForDelivery(b, keys, 120_000 + o.resources * 20);
    ctx.log(`search: ${o.resources} resources (title 6 words, body 60 words, both searchable and vectorizable) seeded and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s (${indexed.toFixed(1)} s after the last POST)`);
    if (o.dataDir) await markSeeded(o.dataDir, { resources: o.resources, collection });
  } else {
    ctx.log(`search: reusing the ${o.resources} resources kept in ${service.dataDir} (BENCH_DATA_DIR)`);
  }

  const origin = new URL(service.deliveryUrl).origin;
  const collectionPath = `${new URL(service.deliveryUrl).pathname}/${API_PREFIX}/${COLLECTION_ALIAS}/`;
  const searchPath = `${collectionPath}_search?limit=10`;
  const query = searchQuery;
  let n = 0;
  const rows: Row[] = [];
  const figures: Figure[] = [];
  const pid = service.child.pid;
  const filtered: Target = { name: `${o.resources} resources: list limit=20 filtered, each query new`, origin, path: () => `${collectionPath}?limit=20&${LIST_FILTER}&where__views__lte=${1e12 + n++}` };
  const unfiltered: Target = { name: `${o.resources} resources: list limit=20 unfiltered, each query new`, origin, path: () => `${collectionPath}?limit=20&next=${firstPageCursor(n++)}` };
  const cpu: { name: string; us: number | null }[] = [];
  for (const target of o.textOnly ? [] : [unfiltered, filtered]) {
    const { row, cpu: us } = await measureWithCpu(ctx, pid, target, () => n);
    rows.push(row);
    cpu.push({ name: target.name, us });
  }
  for (const { name, us } of cpu) figures.push({ name: `${name}: service CPU per request`, value: us === null ? 'n/a' : `${us.toFixed(0)} µs`, note: 'user + system of the whole service process, warm-up included' });
  const [plain, narrowed] = cpu.map((c) => c.us);
  if (plain && narrowed) figures.push({ name: `${o.resources} resources: filtered / unfiltered list, CPU per request`, value: `${(narrowed / plain).toFixed(2)}x` });
  if (o.listsOnly) return { rows, figures };
  let q = 0;
  const fullText: Target = {
    name: `${o.resources} resources: _search full text limit=10, each query new`,
    origin,
    method: 'POST',
    path: () => searchPath,
    headers: () => ({ 'content-type': 'application/json' }),
    body: () => JSON.stringify({ find_text: { query: query(q++).text } }),
  };
  const fullTextRun = await measureWithCpu(ctx, pid, fullText, () => q);
  rows.push(fullTextRun.row);
  figures.push({ name: `${fullText.name}: service CPU per request`, value: fullTextRun.cpu === null ? 'n/a' : `${fullTextRun.cpu.toFixed(0)} µs`, note: 'user + system of the whole service process, warm-up included' });
  figures.push({ name: `${fullText.name}: service main thread CPU per request`, value: fullTextRun.mainCpu === null ? 'n/a' : `${fullTextRun.mainCpu.toFixed(0)} µs`, note: 'user + system of the service\'s main thread, warm-up included' });

  const searchUrl = `${origin}${searchPath}`;
  const post = async (body: unknown) => (await call(searchUrl, { method: 'POST', body })).status;
  const bare = await timed(o, async () => (await call(`${ctx.baseline}/`)).status);
  const text = await timed(o, (i) => post({ find_text: { query: query(i).text } }));
  if (o.textOnly) {
    figures.push({ name: `${o.resources} resources: _search full text (2 words)`, value: `p50 ${text.p50.toFixed(2)} ms, p95 ${text.p95.toFixed(2)} ms`, target: 'p95 ≤ 60 ms', met: text.p95 <= 60, note: `${text.requests} requests one at a time` });
    const memory = memoryOf(service.child.pid ?? -1);
    if (memory) figures.push({ name: `${o.resources} resources: search service RSS after the full-text phases`, value: `${memory.rss.toFixed(0)} MB (peak ${memory.peak.toFixed(0)} MB)`, target: '< 400 MB', met: memory.peak < 400 });
    return { rows, figures };
  }
  const hybrid = await withServiceCpu(pid, (warm) => timed(o, (i) => post({ search_mode: 'hybrid', find_text: { query: query(i).text }, vector_search: { query: query(i).vector } }), warm));
  const vector = await withServiceCpu(pid, (warm) => timed(o, (i) => post({ search_mode: 'vector', vector_search: { query: query(i).vector } }), warm));
  const memory = memoryOf(service.child.pid ?? -1);

  const latency = (m: { p50: number; p95: number; requests: number }) => `p50 ${m.p50.toFixed(2)} ms, p95 ${m.p95.toFixed(2)} ms`;
  const note = (m: { p50: number; requests: number; refused: number; cpuMs?: number | null }) =>
    `${m.requests} requests one at a time${m.refused > 0 ? ` (${m.refused} answered 503 past QUERY_TIMEOUT_MS)` : ''}; p50 ${(m.p50 / bare.p50).toFixed(1)}x bare http get-one${m.cpuMs ? `; service main thread ${m.cpuMs.toFixed(2)} ms CPU a search` : ''}`;
  figures.push(
    { name: `bare http get-one, one at a time`, value: latency(bare), note: `${bare.requests} requests` },
    { name: `${o.resources} resources: _search full text (2 words)`, value: latency(text), target: 'p95 ≤ 60 ms', met: text.p95 <= 60, note: note(text) },
    { name: `${o.resources} resources: _search hybrid (2 + 4 words)`, value: latency(hybrid), target: 'p95 ≤ 100 ms', met: hybrid.p95 <= 100, note: note(hybrid) },
    { name: `${o.resources} resources: _search vector (4 words)`, value: latency(vector), note: note(vector) },
    memory
      ? { name: `${o.resources} resources: search service RSS`, value: `${memory.rss.toFixed(0)} MB (peak ${memory.peak.toFixed(0)} MB)`, target: '< 400 MB', met: memory.peak < 400 }
      : { name: 'search service RSS', value: 'n/a', note: 'needs Linux /proc' },
  );
  return { rows, figures };
}
