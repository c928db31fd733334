// `npm run bench:replay`: how long a restarted service takes to load an aggregate at its
// ceiling (5,000 collections in one environment) from the SQLite event store, against the
// one-copy-per-event fold it replaced, measured in the same run. Budget: 0.5 s.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CommandBus } from '../../commands/command-bus.js';
import { collections, type CollectionsState } from '../../domain/collections/decider.js';
import type { CollectionsEvent } from '../../domain/collections/events.js';
import { CEILINGS } from '../../domain/plan.js';
import { SqliteEventStore } from '../sqlite/event-store.js';

const BUDGET_MS = 500;
const ROUNDS = 5;
const at = '2026-01-01T00:00:00.000Z';

/** The evolve this replaces: every event copies the whole tree. */
const copyPerEvent = (state: CollectionsState, event: CollectionsEvent): CollectionsState =>
  event.type === 'CollectionCreated' ? { byKey: { ...state.byKey, [event.data.key]: { ...event.data } }, count: state.count + 1 } : state;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<number> {
  const n = CEILINGS.collections;
  const dir = await mkdtemp(join(tmpdir(), 'cms-replay-'));
  const store = new SqliteEventStore(join(dir, 'events.db'));
  try {
    const metadata = { actor_type: 'system' as const, actor: null, ip_address: null, referer: null, timestamp: at };
    const events = Array.from({ length: n }, (_, i) => ({
      id: `e${i}`,
      type: 'CollectionCreated',
      data: { env: 'e', key: `key${i}`, name: `C${i}`, alias: `alias${i}`, parent: null, path: `alias${i}`, content_type: 'document', strict_reference: false, auto_remove_revisions: null, auto_remove_schema_versions: null, created_at: at },
      metadata,
    }));
    await store.appendToStream('collections-e', events, 'no_stream');
    const now: number[] = [];
    const before: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let start = performance.now();
      const { state } = await new CommandBus(store).load(collections, 'collections-e'); // a fresh bus: nothing cached, as after a restart
      now.push(performance.now() - start);
      if (state.count !== n) throw new Error(`loaded ${state.count} collections, expected ${n}`);
      start = performance.now();
      const stored = await store.readStream('collections-e');
      stored.map((e) => ({ type: e.type, data: e.data }) as CollectionsEvent).reduce(copyPerEvent, collections.initialState());
      before.push(performance.now() - start);
    }
    const [ms, baseline] = [median(now), median(before)];
    process.stdout.write(
      [
        `replay of ${n} collections after a restart (median of ${ROUNDS}):`,
        `  batch evolve (now):          ${ms.toFixed(1)} ms`,
        `  one copy per event (before): ${baseline.toFixed(1)} ms`,
        `  ratio now / before: ${(ms / baseline).toFixed(3)}; budget ${BUDGET_MS} ms: ${ms < BUDGET_MS ? 'met' : 'MISSED'}`,
        '',
      ].join('\n'),
    );
    return ms < BUDGET_MS ? 0 : 1;
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:replay failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
