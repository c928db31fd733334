import { SingleBar, Presets } from 'cli-progress';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { rebuildProjections } from '../rebuild/rebuild.js';
import { threadCpuSeconds } from '../rebuild/thread-cpu.js';

export const REBUILD_USAGE = `usage: npm run rebuild -- [--data-dir DIR]
Rebuilds every projection from the first event: the read models are swapped in when done (a running
service keeps serving the old ones until then), the delivery index is taken over by the next start.`;

/** `npm run rebuild`: 0 when rebuilt, 2 on bad arguments. */
export async function rebuildCli(argv: readonly string[], env: NodeJS.ProcessEnv, out: Writable, err: Writable & { isTTY?: boolean }): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: [...argv], options: { 'data-dir': { type: 'string' }, help: { type: 'boolean' } }, strict: true }).values;
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}\n${REBUILD_USAGE}\n`);
    return 2;
  }
  if (args.help) {
    out.write(`${REBUILD_USAGE}\n`);
    return 0;
  }
  const config = loadConfig(args['data-dir'] === undefined ? env : { ...env, DATA_DIR: args['data-dir'] });
  const bar = new SingleBar(
    { stream: err, format: 'rebuilding [{bar}] {percentage}% | {value}/{total} events | {rate} events/s | ETA {eta}s', noTTYOutput: true, notTTYSchedule: 2000 },
    Presets.shades_classic,
  );
  const started = performance.now();
  const report = await rebuildProjections(
    config,
    (done) => bar.update(done, { rate: Math.round(done / Math.max((performance.now() - started) / 1000, 0.001)) }),
    (total) => bar.start(total, 0, { rate: 0 }),
  ).finally(() => bar.stop());
  const rate = report.events / Math.max(report.seconds, 0.001);
  out.write(
    `rebuilt ${report.events} events in ${report.seconds.toFixed(2)} s (${Math.round(rate)} events/s); read models swapped in at ${report.position}` +
      ` after ${report.swapAttempts} attempt(s); the delivery index waits in ${report.deliveryFile} for the next start\n`,
  );
  // From the process's start: its own start and module loading are part of what a user waits for.
  const used = process.cpuUsage();
  const main = threadCpuSeconds();
  const threads = main === undefined || report.deliveryCpuSeconds === undefined ? '' : `; main thread cpu ${main.toFixed(2)} s, delivery thread cpu ${report.deliveryCpuSeconds.toFixed(2)} s`;
  out.write(
    `replay ${report.replaySeconds.toFixed(2)} s; read models swapped in at ${report.readModelSeconds.toFixed(2)} s; delivery index written at ${report.deliverySeconds.toFixed(2)} s;` +
      ` process cpu ${((used.user + used.system) / 1e6).toFixed(2)} s (every thread, since it started)${threads}\n`,
  );
  return 0;
}
