import { writeFile } from 'node:fs/promises';
import { call } from './http.js';
import { Latency } from './latency.js';
import type { BenchContext, Scenario } from './scenario.js';
import type { Figure } from './table.js';
import { resourceData } from './seed.js';
import { createTarget } from './writes.js';

const SAMPLE_TIMEOUT_MS = 10_000;
const TARGET_P99_MS = 50;

/**
 * One sample: a create with `wait=false`, then delivery get-one of its key again and again
 * (no pause) until it answers 200. The time from sending the create to that 200, in ms.
 */
async function sample(ctx: BenchContext, i: number, trace: SampleTrace[] | null): Promise<number> {
  const b = ctx.service.bootstrap;
  const started = performance.now();
  const polls: number[] = [];
  const created = await call(`${b.base_url}/v1/${b.environment}/collections/${ctx.collection}/resources/?wait=false`, {
    method: 'POST',
    token: b.management_token,
    body: { data: resourceData(i) },
  });
  const key = (created.body as { key?: unknown } | null)?.key;
  if (created.status !== 202 || typeof key !== 'string') throw new Error(`visibility: create answered ${created.status}: ${created.text.slice(0, 300)}`);
  const url = `${new URL(b.delivery_url).origin}${ctx.deliveryPath}${key}/`;
  const answered = performance.now();
  while (performance.now() - started < SAMPLE_TIMEOUT_MS) {
    const answer = await call(url);
    polls.push(performance.now());
    if (answer.status === 200) {
      const done = performance.now();
      trace?.push({ at: wall(started), created: answered - started, polls: polls.map((t) => t - started), ms: done - started });
      return done - started;
    }
    if (answer.status !== 404) throw new Error(`visibility: delivery get-one answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
  throw new Error(`visibility: ${key} was not delivered within ${SAMPLE_TIMEOUT_MS / 1000} s`);
}

/**
 * One sample's time line, for BENCH_VISIBILITY_TRACE=<file> (docs/decisions/0275): when it began
 * (wall-clock ms, to lay beside the service's CMS_STAGE_TRACE marks), when its create was answered
 * and each poll came back (ms from the start), and its whole time.
 */
type SampleTrace = { readonly at: number; readonly created: number; readonly polls: readonly number[]; readonly ms: number; phase?: string };

const wall = (t: number): number => performance.timeOrigin + t;

/** Samples one after another until `count` are taken or `until()` says stop. */
async function samples(ctx: BenchContext, count: number, first: number, trace: SampleTrace[] | null, until: () => boolean = () => false): Promise<Latency> {
  const latency = new Latency();
  for (let i = 0; i < count && !until(); i++) latency.record(await sample(ctx, first + i, trace));
  return latency;
}

/** Writes the samples' time lines where BENCH_VISIBILITY_TRACE says, if it does. */
async function writeTrace(file: string, idle: SampleTrace[], busy: SampleTrace[]): Promise<void> {
  const lines = [...idle.map((s) => ({ ...s, phase: 'idle' })), ...busy.map((s) => ({ ...s, phase: 'busy' }))].map((s) => JSON.stringify(s));
  await writeFile(file, lines.join('\n') + '\n');
}

const figure = (name: string, latency: Latency): Figure => {
  const p99 = latency.quantile(0.99);
  return {
    name,
    value: `p50 ${latency.quantile(0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
    target: `p99 < ${TARGET_P99_MS} ms`,
    met: p99 < TARGET_P99_MS,
    note: `${latency.samples} samples`,
  };
};

/** Write → delivery visibility, on an idle service and beside BENCH_WRITERS writers with `wait=true`. */
export const visibility: Scenario = {
  name: 'visibility',
  async run(ctx) {
    const n = ctx.options.visibilitySamples;
    const base = 10_000_000;
    const file = ctx.options.visibilityTrace;
    const traced = file ? { idle: [] as SampleTrace[], busy: [] as SampleTrace[] } : null;
    const idle = await samples(ctx, n, base, traced?.idle ?? null);
    let loadDone = false;
    const load = ctx.measure(createTarget(ctx, `create wait=true (${ctx.options.writers} writers, beside visibility samples)`, true), ctx.options.writers);
    void load.finally(() => (loadDone = true));
    const busy = await samples(ctx, n, base + n, traced?.busy ?? null, () => loadDone);
    const m = await load;
    if (file && traced) await writeTrace(file, traced.idle, traced.busy);
    return {
      rows: [{ m, baseline: ctx.baseline.getOne }],
      figures: [figure('write -> delivery visibility, idle', idle), figure(`write -> delivery visibility, ${ctx.options.writers} writers`, busy)],
    };
  },
};
