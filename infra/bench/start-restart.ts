import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive, stopChild } from './cleanup.js';
import { call, sleep } from './http.js';
import type { BenchContext, Scenario } from './scenario.js';
import { freePorts } from './service.js';
import type { Figure } from './table.js';

const RESTARTS = 5;
const POLL_MS = 5;
const TIMEOUT_MS = 5 * 60_000;

/** Milliseconds from running `npm start` on `dataDir` to the first 200 of `/readyz`; then SIGTERM to npm and its exit. */
async function toReady(ctx: BenchContext, dataDir: string): Promise<number> {
  const ports = await freePorts();
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', PORT: String(ports.port), DELIVERY_PORT: String(ports.deliveryPort), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  for (const name of ['EVENTSTORE_URL', 'MONGO_URL', 'OPENSEARCH_URL', 'JWT_SECRET', 'npm_lifecycle_event']) delete env[name];
  const started = performance.now();
  const npm = ctx.cleanup.child(spawn('npm', ['start'], { cwd: ctx.root, env, stdio: 'ignore' }));
  try {
    while (performance.now() - started < TIMEOUT_MS) {
      if (!alive(npm)) throw new Error(`npm start exited with ${npm.exitCode ?? npm.signalCode}`);
      const answer = await call(`http://127.0.0.1:${ports.port}/readyz`, { timeoutMs: 5_000 }).catch(() => null);
      if (answer?.status === 200) return performance.now() - started;
      await sleep(POLL_MS);
    }
    throw new Error(`npm start: no 200 on /readyz within ${TIMEOUT_MS / 1000} s`);
  } finally {
    await stopChild(npm);
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/**
 * `npm start` as an operator runs it (docs/decisions/0347): from the command to the first 200 of
 * `/readyz`, on an empty data directory (the first start: bootstrap) and then RESTARTS times on
 * the same directory, each after a SIGTERM to npm. The restart scenario (restart.ts) measures
 * restarts on a copy of the seeded data.
 */
export const startRestart: Scenario = {
  name: 'start-restart',
  async run(ctx) {
    const dataDir = ctx.cleanup.dir(await mkdtemp(join(tmpdir(), 'cms-bench-start-')));
    ctx.phase('npm start on an empty data directory');
    const first = await toReady(ctx, dataDir);
    const restarts: number[] = [];
    for (let i = 0; i < RESTARTS; i++) {
      ctx.phase(`npm start again on the same data directory (${i + 1} of ${RESTARTS})`);
      restarts.push(await toReady(ctx, dataDir));
    }
    const sorted = [...restarts].sort((a, b) => a - b);
    const figures: Figure[] = [
      { name: 'npm start to first /readyz 200, empty data directory', value: seconds(first), note: 'bootstrap included' },
      {
        name: `npm start to first /readyz 200, restart (median of ${RESTARTS})`,
        value: seconds(sorted[Math.floor(RESTARTS / 2)]!),
        note: `min ${seconds(sorted[0]!)}, max ${seconds(sorted[RESTARTS - 1]!)}; goal 1 s`,
      },
    ];
    return { figures };
  },
};
