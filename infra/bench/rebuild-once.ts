// `npx tsx infra/bench/rebuild-once.ts DIR`: `npm run rebuild`'s work on DIR alone, printing its
// rate and phases; run with `node --cpu-prof --import tsx` to profile it (docs/decisions/0140).
import { loadConfig } from '../config.js';
import { rebuildProjections } from '../rebuild/rebuild.js';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: npx tsx infra/bench/rebuild-once.ts DIR\n');
  process.exit(2);
}
const cpu = process.cpuUsage();
const report = await rebuildProjections(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }));
const rate = (seconds: number) => (report.events / Math.max(seconds, 0.001)).toFixed(0);
process.stdout.write(
  `rebuilt ${report.events} events in ${report.seconds.toFixed(2)} s: ${rate(report.seconds)} events/s end to end;` +
    ` replay ${report.replaySeconds.toFixed(2)} s (${rate(report.replaySeconds)} events/s); cpu ${((process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1e6).toFixed(2)} s; rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB\n`,
);
