import { appendFileSync, writeFileSync } from 'node:fs';
import { PerformanceObserver, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { ProjectionTarget } from '../../projections/runner.js';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A benchmark-only time line of the write path (docs/decisions/0275): with `CMS_STAGE_TRACE=<file>`
 * in its environment the service notes when each group commit, WAL sync, projection batch,
 * delivery request, garbage collection and long event-loop turn began and how long it took, and
 * appends them to `<file>` as JSON lines every two seconds and when it stops. Without the variable
 * every mark is a no-op. Times are wall-clock ms (`performance.timeOrigin + performance.now()`),
 * so the benchmark can lay its own samples beside them.
 */
export type StageMark = { readonly stage: string; readonly at: number; readonly ms: number; readonly n?: number };

const MAX_MARKS = 2_000_000;
const file = process.env.CMS_STAGE_TRACE;
const marks: StageMark[] = [];
/** Marks already appended to the file. */
let written = 0;

/** Now, in wall-clock ms with sub-ms precision. */
export const stageNow = (): number => performance.timeOrigin + performance.now();

/** Notes a stage that started at `at` (stageNow) and ends now; `n` is its size (events, appends). */
export function markStage(stage: string, at: number, n?: number): void {
  if (!file || written + marks.length >= MAX_MARKS) return;
  marks.push(n === undefined ? { stage, at, ms: stageNow() - at } : { stage, at, ms: stageNow() - at, n });
}

/** Whether the trace is on (callers skip work that only feeds it). */
export const stageTraceOn = (): boolean => file !== undefined && file !== '';

/** Starts the observers (GC pauses, event-loop turns over LONG_TURN_MS) and the write at exit. */
export function startStageTrace(): void {
  if (!stageTraceOn()) return;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (written + marks.length < MAX_MARKS) marks.push({ stage: 'gc', at: performance.timeOrigin + entry.startTime, ms: entry.duration, n: kind ?? 0 });
    }
  }).observe({ entryTypes: ['gc'] });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  // The loop's late ticks: a 1 ms timer that fires late measures how long the loop was held.
  let expected = stageNow() + 1;
  const tick = (): void => {
    const now = stageNow();
    if (now - expected > LONG_TURN_MS && written + marks.length < MAX_MARKS) marks.push({ stage: 'loop-held', at: expected, ms: now - expected });
    expected = now + 1;
    setTimeout(tick, 1).unref();
  };
  setTimeout(tick, 1).unref();
  // Written out every few seconds, so a process stopped without warning leaves its trace but the last seconds.
  writeFileSync(file!, '');
  const flush = (): void => {
    if (marks.length === 0) return;
    appendFileSync(file!, marks.map((m) => JSON.stringify(m)).join('\n') + '\n');
    written += marks.length;
    marks.length = 0;
  };
  setInterval(flush, FLUSH_MS).unref();
  process.once('exit', () => {
    delay.disable();
    marks.push({ stage: 'loop-delay-summary', at: stageNow(), ms: delay.percentile(99) / 1e6, n: delay.max / 1e6 });
    flush();
  });
}

const LONG_TURN_MS = 3;
const FLUSH_MS = 2_000;

/** A projection target whose batches are marked as `apply:<name>` when the trace is on (else the target itself). */
export function tracedTarget(target: ProjectionTarget): ProjectionTarget {
  if (!stageTraceOn()) return target;
  return {
    name: target.name,
    checkpoint: () => target.checkpoint(),
    apply: async (events, position) => {
      const started = stageNow();
      await target.apply(events, position);
      markStage(`apply:${target.name}`, started, events.length);
    },
    ...(target.issued ? { issued: () => target.issued!() } : {}),
    ...(target.starting ? { starting: () => target.starting!() } : {}),
  };
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** A listener whose requests are marked as `stage` from when it took them to when their answer was written, when the trace is on (else the listener itself). */
export function tracedListener<L extends Listener>(stage: string, listener: L): L {
  if (!stageTraceOn()) return listener;
  const traced = (req: IncomingMessage, res: ServerResponse): void => {
    const at = stageNow();
    res.once('finish', () => markStage(stage, at));
    listener(req, res);
  };
  return Object.assign(traced, listener);
}
