import { Database } from '../sqlite/driver.js';
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive, stopChild } from './cleanup.js';
import { call, sleep } from './http.js';
import type { BenchContext, Scenario } from './scenario.js';
import { freePorts, spawnService } from './service.js';
import type { Figure } from './table.js';

const POLL_MS = 5;
const START_TIMEOUT_MS = 10 * 60_000;
const FILES = ['bootstrap.json', 'jwt-secret'];

/** A consistent copy of the running service's data (SQLite online backup); the read side only when `readSide`. */
async function snapshot(ctx: BenchContext, readSide: boolean): Promise<string> {
  const dir = ctx.cleanup.dir(await mkdtemp(join(tmpdir(), 'cms-bench-restart-')));
  for (const db of readSide ? ['events.db', 'read-models.db', 'delivery.db'] : ['events.db']) {
    const source = new Database(join(ctx.dataDir, db), { readonly: true });
    try {
      await source.backup(join(dir, db));
    } finally {
      source.close();
    }
  }
  for (const file of FILES) await copyFile(join(ctx.dataDir, file), join(dir, file));
  return dir;
}

function eventCount(dataDir: string): number {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Milliseconds from spawning the service on `dataDir` to its first 200 for a delivery get-one of `key`. */
async function timeToFirstAnswer(ctx: BenchContext, dataDir: string, key: string): Promise<number> {
  const ports = await freePorts();
  const url = `http://127.0.0.1:${ports.deliveryPort}${ctx.deliveryPath}${key}/`;
  const started = performance.now();
  const cpuProf = ctx.options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${ctx.options.cpuProfileDir}`] : [];
  // The bundle `npm start` runs (docs/decisions/0382).
  const { child, output } = spawnService(ctx.cleanup, ctx.root, dataDir, ports, { execArgv: cpuProf, bundle: true });
  try {
    while (performance.now() - started < START_TIMEOUT_MS) {
      if (!alive(child)) throw new Error(`restarted service exited with ${child.exitCode ?? child.signalCode}:\n${output.tail.join('\n')}`);
      const answer = await call(url, { timeoutMs: 5_000 }).catch(() => null);
      if (answer?.status === 200) return performance.now() - started;
      if (answer) throw new Error(`restarted service answered ${answer.status} for ${url}: ${answer.text.slice(0, 300)}`);
      await sleep(POLL_MS);
    }
    throw new Error(`restarted service did not answer within ${START_TIMEOUT_MS / 1000} s`);
  } finally {
    await stopChild(child);
  }
}

/**
 * Restart time on a copy of the run's data (run first: the BENCH_RESOURCES seeded resources): from process
 * start to the first answered delivery request, once with the read side kept (catch-up from
 * its checkpoints) and once with only the event store (every event replayed into the read side
 * before the service listens). Their difference is the replay.
 */
export const restart: Scenario = {
  name: 'restart',
  async run(ctx) {
    const key = ctx.keys[0] as string;
    const kept = await snapshot(ctx, true);
    const events = eventCount(kept);
    ctx.phase('restart with the read side kept');
    const warm = await timeToFirstAnswer(ctx, kept, key);
    ctx.phase('restart with the read side rebuilt');
    const bare = await snapshot(ctx, false);
    const cold = await timeToFirstAnswer(ctx, bare, key);
    const replay = Math.max(cold - warm, 0);
    const figures: Figure[] = [
      { name: `restart to first answer, read side kept (${events} events)`, value: `${(warm / 1000).toFixed(2)} s`, note: 'includes Node start-up' },
      {
        name: `restart to first answer, read side rebuilt (${events} events)`,
        value: `${(cold / 1000).toFixed(2)} s`,
        note: `replay into the read side ~${(replay / 1000).toFixed(2)} s = ${(events / Math.max(replay / 1000, 0.001)).toFixed(0)} events/s`,
      },
    ];
    return { figures };
  },
};
