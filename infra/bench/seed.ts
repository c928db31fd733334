import { call, expect, sleep } from './http.js';
import { Progress } from './progress.js';
import type { Bootstrap } from './service.js';

export const API_PREFIX = 'site';
export const COLLECTION_ALIAS = 'articles';

const REQUEST_TIMEOUT_MS = 30_000;
const PAGE = 100;

type Keyed = { key: string };

const WORDS = 'event sourced content delivery projection schema version resource collection publish index cursor page query'.split(' ');

/** About 500 characters of text that differs per resource. */
export function bodyText(i: number): string {
  const words: string[] = [];
  let length = 0;
  for (let w = 0; length < 500; w++) {
    const word = WORDS[(i * 7 + w * 3) % WORDS.length] as string;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ').slice(0, 500);
}

export const resourceData = (i: number) => ({ title: `Article ${i}`, body: bodyText(i), views: i * 13, published: i % 2 === 0 });

/** The collection, its published schema and a delivery API that serves it; returns the collection key. */
export async function setupContent(b: Bootstrap): Promise<string> {
  const v1 = `${b.base_url}/v1/${b.environment}`;
  const post = <T>(status: number, what: string, path: string, body: unknown) =>
    expect<T>(status, what, `${v1}${path}`, { method: 'POST', token: b.management_token, body });
  const collection = await post<Keyed>(201, 'create collection', '/collections/tree/', { name: 'Articles', alias: COLLECTION_ALIAS });
  const version = await post<Keyed>(201, 'create model version', `/collections/${collection.key}/model/versions/`, { name: 'v1' });
  const fields = [
    { key: 'title', type: 'string', required: true },
    { key: 'body', type: 'text', required: true },
    { key: 'views', type: 'integer', required: true },
    { key: 'published', type: 'boolean', required: true },
  ];
  for (const field of fields) {
    await post(201, `add field ${field.key}`, `/collections/${collection.key}/model/versions/${version.key}/schema/tree/`, field);
  }
  await post(200, 'publish model version', `/collections/${collection.key}/model/versions/${version.key}/publish/`, {});
  const api = await post<Keyed>(201, 'create delivery API', '/api/', { name: 'Site', prefix: API_PREFIX });
  await post(201, 'connect collection', `/api/${api.key}/collections/`, { folder: collection.key, allowed_methods: ['get_many', 'get_one'] });
  return collection.key;
}

/**
 * Creates `total` resources with `wait=false`, `concurrency` requests in flight; stops at
 * the first failure. Returns the keys in creation order and the elapsed seconds.
 */
export async function seedResources(b: Bootstrap, collection: string, total: number, concurrency: number): Promise<{ keys: string[]; seconds: number }> {
  const url = `${b.base_url}/v1/${b.environment}/collections/${collection}/resources/?wait=false`;
  const keys: string[] = new Array<string>(total);
  const progress = new Progress('seeding', total);
  const started = performance.now();
  let next = 0;
  let done = 0;
  let failure: Error | null = null;
  const worker = async () => {
    while (failure === null && next < total) {
      const i = next++;
      try {
        const answer = await call(url, { method: 'POST', token: b.management_token, body: { data: resourceData(i) }, timeoutMs: REQUEST_TIMEOUT_MS });
        const key = (answer.body as Partial<Keyed> | null)?.key;
        if (answer.status !== 202 || typeof key !== 'string') {
          throw new Error(`POST ${url} (resource ${i}) answered ${answer.status} (expected 202 with a key): ${answer.text.slice(0, 500)}`);
        }
        keys[i] = key;
        progress.update(++done);
      } catch (error) {
        failure ??= error instanceof Error ? error : new Error(String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  progress.end();
  if (failure) throw failure;
  return { keys, seconds: (performance.now() - started) / 1000 };
}

type ListPage = { next: string | null; results: { _sys: { key: string } }[] };

/** Walks every delivery page once; the number of distinct seeded keys seen. */
async function countDelivered(listUrl: string, seeded: ReadonlySet<string>, maxPages: number): Promise<number> {
  const seen = new Set<string>();
  let url: string | null = `${listUrl}?limit=${PAGE}`;
  for (let pages = 0; url !== null && pages < maxPages; pages++) {
    const page: ListPage = await expect<ListPage>(200, 'delivery list', url, { timeoutMs: REQUEST_TIMEOUT_MS });
    for (const item of page.results) if (seeded.has(item._sys.key)) seen.add(item._sys.key);
    url = page.next;
  }
  return seen.size;
}

/** Polls the delivery list until every seeded key is there, for at most `timeoutMs`. */
export async function waitForDelivery(b: Bootstrap, keys: readonly string[], timeoutMs: number): Promise<number> {
  const listUrl = `${b.delivery_url}/${API_PREFIX}/${COLLECTION_ALIAS}/`;
  const seeded = new Set(keys);
  const maxPages = Math.ceil(keys.length / PAGE) + 10;
  const progress = new Progress('on the delivery list', keys.length, false);
  const started = performance.now();
  const deadline = Date.now() + timeoutMs;
  let count = 0;
  while (Date.now() < deadline) {
    count = await countDelivered(listUrl, seeded, maxPages);
    progress.update(count);
    if (count === keys.length) {
      progress.end();
      return (performance.now() - started) / 1000;
    }
    await sleep(500);
  }
  progress.end();
  throw new Error(`the delivery list had ${count} of ${keys.length} seeded resources after ${timeoutMs / 1000} s`);
}

/** One real get-one item and one real list page (limit=20), the baseline's bodies. */
export async function sampleBodies(b: Bootstrap, keys: readonly string[], listLimit: number): Promise<{ getOne: string; list: string }> {
  const base = `${b.delivery_url}/${API_PREFIX}/${COLLECTION_ALIAS}/`;
  const key = keys[Math.floor(keys.length / 2)] as string;
  const one = await call(`${base}${key}/`);
  const list = await call(`${base}?limit=${listLimit}`);
  if (one.status !== 200) throw new Error(`delivery get-one of ${key} answered ${one.status}: ${one.text.slice(0, 500)}`);
  if (list.status !== 200) throw new Error(`delivery list answered ${list.status}: ${list.text.slice(0, 500)}`);
  const data = (one.body as { data?: { title?: unknown } }).data;
  if (data?.title !== resourceData(Math.floor(keys.length / 2)).title) {
    throw new Error(`delivery get-one of ${key} has unexpected data: ${one.text.slice(0, 500)}`);
  }
  return { getOne: one.text, list: list.text };
}
