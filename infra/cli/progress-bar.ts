import { Presets, SingleBar } from 'cli-progress';
import type { Writable } from 'node:stream';

/**
 * A progress bar of events on `stream` (cli-progress): drawn on a terminal only, so a redirected
 * or piped run prints nothing but its result. `update(done)` also shows the rate.
 */
export function eventsBar(stream: Writable, label: string): { start(total: number): void; update(done: number): void; stop(): void } {
  const bar = new SingleBar({ stream, format: `${label} [{bar}] {percentage}% | {value}/{total} events | {rate} events/s`, noTTYOutput: false }, Presets.shades_classic);
  let started = 0;
  return {
    start(total) {
      started = performance.now();
      bar.start(total, 0, { rate: 0 });
    },
    update(done) {
      bar.update(done, { rate: Math.round(done / Math.max((performance.now() - started) / 1000, 0.001)) });
    },
    stop: () => bar.stop(),
  };
}
