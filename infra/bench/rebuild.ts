import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REBUILD_BUNDLE } from '../cli/build-if-stale.mjs';
import { SqliteEventStore } from '../sqlite/event-store.js';
import type { Cleanup } from './cleanup.js';

/** The rebuild goal on the embedded default (events per second). */
const GOAL = 50_000;
const PAGE = 5000;
/** A rebuild of the benchmark's data takes seconds; past this it is stopped and reported as failed. */
const TIMEOUT_MS = 300_000;

/** Reading the whole log and nothing else: the rebuild's own baseline. */
async function readRate(dataDir: string): Promise<number> {
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  try {
    const started = performance.now();
    let events = 0;
    let after = '';
    for (let page = await store.readAll(after, PAGE); page.length > 0; page = await store.readAll(after, PAGE)) {
      events += page.length;
      after = page[page.length - 1]!.position;
    }
    return events / Math.max((performance.now() - started) / 1000, 0.001);
  } finally {
    await store.close();
  }
}

type Run = { readonly code: number | null; readonly out: string; readonly err: string; readonly seconds: number };

/** `npm run rebuild`'s program, as built (its bundle in `dist/`, which the benchmark built before starting the service): from its spawn to its exit. */
function runBuiltRebuild(cleanup: Cleanup, root: string, dataDir: string, execArgv: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = cleanup.child(spawn(process.execPath, [...execArgv, join(root, REBUILD_BUNDLE, 'rebuild.js'), '--data-dir', dataDir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }));
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/**
 * The rebuild scenario: `npm run rebuild`'s built program on the benchmark's data directory
 * while the service runs on it, timed from its spawn to its exit (node's start and the module
 * loading included; npm's own start and the staleness check of the build, which `npm run
 * rebuild` adds, are not: docs/decisions/0225); reports events/s against reading the log alone,
 * measured in the same run. `execArgv` (BENCH_CPU_PROF) profiles the rebuild's threads; `cleanup` stops it if the benchmark is interrupted.
 */
export async function rebuildScenario(root: string, dataDir: string, cleanup: Cleanup, execArgv: readonly string[] = []): Promise<string[]> {
  const read = await readRate(dataDir);
  const run = await runBuiltRebuild(cleanup, root, dataDir, execArgv);
  const events = Number(/^rebuilt (\d+) events/m.exec(run.out)?.[1] ?? NaN);
  if (run.code !== 0 || !Number.isFinite(events)) throw new Error(`the rebuild failed (exit ${run.code}):\n${run.err.slice(-2000)}${run.out}`);
  const phases = /^replay .*$/m.exec(run.out)?.[0] ?? '';
  const rate = events / Math.max(run.seconds, 0.001);
  return [
    `rebuild (npm run rebuild's built program, from spawn to exit): ${events} events in ${run.seconds.toFixed(2)} s: ${rate.toFixed(0)} events/s end to end (goal ${GOAL}: ${rate >= GOAL ? 'met' : 'not met'}); inside it: ${phases}`,
    `rebuild baseline, reading the log alone: ${read.toFixed(0)} events/s; rebuild / read = ${(rate / read).toFixed(3)}`,
  ];
}
