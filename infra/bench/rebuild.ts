import { join } from 'node:path';
import { loadConfig } from '../config.js';
import { rebuildProjections } from '../rebuild/rebuild.js';
import { SqliteEventStore } from '../sqlite/event-store.js';
import { Progress } from './progress.js';

/** The rebuild goal on the embedded default (events per second). */
const GOAL = 50_000;
const PAGE = 5000;

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

/**
 * The rebuild scenario: `npm run rebuild`'s work on the benchmark's data directory while the
 * service runs on it; reports events/s against reading the log alone, measured in the same run.
 */
export async function rebuildScenario(dataDir: string): Promise<string[]> {
  const read = await readRate(dataDir);
  let progress: Progress | null = null;
  const report = await rebuildProjections(
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    (done) => progress?.update(done),
    (total) => (progress = new Progress('rebuilding', Math.max(total, 1))),
  );
  (progress as Progress | null)?.end();
  const rate = report.events / Math.max(report.seconds, 0.001);
  return [
    `rebuild: ${report.events} events in ${report.seconds.toFixed(2)} s: ${rate.toFixed(0)} events/s end to end (goal ${GOAL}: ${rate >= GOAL ? 'met' : 'not met'});` +
      ` replaying through the read-model projections alone ${(report.events / Math.max(report.replaySeconds, 0.001)).toFixed(0)} events/s;` +
      ` read models swapped in at ${report.readModelSeconds.toFixed(2)} s, delivery index written (in its own thread) at ${report.deliverySeconds.toFixed(2)} s`,
    `rebuild baseline, reading the log alone: ${read.toFixed(0)} events/s; rebuild / read = ${(rate / read).toFixed(3)}`,
  ];
}
