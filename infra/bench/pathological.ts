// The pathological query of `npm run bench` (issue 36, docs/decisions/0339): one document of about
// 600 KB of text, and a `_search` whose `where` holds 50 `body__contains` conditions of 1,000
// characters each (the most the query limits allow), each a slice of the document's own text with
// its last character changed, so that nearly every trigram of it is in the document and none of
// them holds. Ten of them one at a time (latency and status: 200 within QUERY_TIMEOUT_MS, 503
// past it), then ten at once while management and delivery /healthz are asked.
import { call, expect } from './http.js';
import { Latency } from './latency.js';
import type { Bootstrap } from './service.js';
import type { Figure } from './table.js';

const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango'.split(' ');

function longText(chars: number): string {
  const words: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const word = WORDS[(i * 7 + Math.floor(i / 13)) % WORDS.length]!;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ').slice(0, chars);
}

async function timedStatus(url: string, body: unknown): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const answer = await call(url, { method: 'POST', body, timeoutMs: 120_000 });
  return { ms: performance.now() - started, status: answer.status };
}

const statuses = (all: readonly number[]): string =>
  [...new Set(all)].map((status) => `${all.filter((s) => s === status).length} × ${status}`).join(', ');

export async function pathologicalQuery(b: Bootstrap, collection: string, searchUrl: string): Promise<Figure[]> {
  const text = longText(600_000);
  const v1 = `${b.base_url}/v1/${b.environment}`;
  await expect(201, 'create the 600 KB document', `${v1}/collections/${collection}/resources/?wait=true`, {
    method: 'POST',
    token: b.management_token,
    body: { data: { title: 'the long one', body: text, views: 0, published: true } },
  });
  const conditions = Array.from({ length: 50 }, (_, i) => ({ body__contains: `${text.slice(i * 1000, i * 1000 + 999)}Z` }));
  const body = { where: { $: { any_of: conditions } } };
  const one = new Latency();
  const alone: number[] = [];
  for (let i = 0; i < 10; i++) {
    const { ms, status } = await timedStatus(searchUrl, body);
    one.record(ms);
    alone.push(status);
  }
  const together = Array.from({ length: 10 }, () => timedStatus(searchUrl, body));
  const health: number[] = [];
  for (const origin of [b.base_url, new URL(b.delivery_url).origin, b.base_url, new URL(b.delivery_url).origin]) {
    const started = performance.now();
    await call(`${origin}/healthz`);
    health.push(performance.now() - started);
  }
  const ten = await Promise.all(together);
  const slowestHealth = Math.max(...health);
  return [
    { name: 'pathological _search (50 × 1,000-character contains, 600 KB document), one at a time', value: `p50 ${one.quantile(0.5).toFixed(1)} ms, max ${one.quantile(1).toFixed(1)} ms`, note: statuses(alone) },
    { name: 'pathological _search, ten at once', value: `slowest ${Math.max(...ten.map((t) => t.ms)).toFixed(1)} ms`, note: statuses(ten.map((t) => t.status)) },
    { name: 'management and delivery /healthz while the ten run', value: `slowest ${slowestHealth.toFixed(1)} ms`, target: '< 50 ms', met: slowestHealth < 50, note: health.map((ms) => ms.toFixed(1)).join(', ') },
  ];
}
