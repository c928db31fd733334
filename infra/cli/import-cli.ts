import { existsSync, mkdirSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { EventStore } from '../../commands/ports.js';
import { checkExport } from '../audit/export-file.js';
import { LineError } from '../audit/event-line.js';
import { loadConfig, type Config } from '../config.js';
import { rebuildProjections } from '../rebuild/rebuild.js';
import { SqliteEventStore } from '../sqlite/event-store.js';
import { appendExport, embeddedTarget } from './import-log.js';
import { eventsBar } from './progress-bar.js';

export const IMPORT_USAGE = `usage: npm run import -- --in FILE [--data-dir DIR]
Loads an export (npm run export) into an empty event store: DIR's events.db, or the EventStoreDB of
EVENTSTORE_URL. The whole file's hash chain is checked first (a break stops the import, naming the
line, and writes nothing); the projections are rebuilt at the end.`;

/** `npm run import`: 0 when imported, 1 when the file or the target is refused, 2 on bad arguments. */
export async function importCli(argv: readonly string[], env: NodeJS.ProcessEnv, out: Writable, err: Writable): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: [...argv], options: { in: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean' } }, strict: true }).values;
    if (!args.help && !args.in) throw new Error('--in FILE is required');
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}\n${IMPORT_USAGE}\n`);
    return 2;
  }
  if (args.help || !args.in) {
    out.write(`${IMPORT_USAGE}\n`);
    return 0;
  }
  if (!existsSync(args.in)) {
    err.write(`no file ${args.in}\n`);
    return 2;
  }
  const config = loadConfig(args['data-dir'] === undefined ? env : { ...env, DATA_DIR: args['data-dir'] });
  try {
    return await importInto(config, args.in, out, err);
  } catch (error) {
    if (!(error instanceof LineError) && !(error instanceof TargetRefused)) throw error;
    err.write(`import refused: ${error.message}; nothing was imported\n`);
    return 1;
  }
}

class TargetRefused extends Error {}

async function importInto(config: Config, file: string, out: Writable, err: Writable): Promise<number> {
  const started = performance.now();
  const embedded = config.eventStoreUrl ? null : embeddedTarget(config);
  if (embedded && existsSync(embedded.file)) throw new TargetRefused(`${embedded.file} exists: import into a data directory without events.db`);

  const checking = eventsBar(err, 'checking ');
  checking.start(0);
  const checked = await checkExport(file, (done) => checking.update(done)).finally(() => checking.stop());

  mkdirSync(config.dataDir, { recursive: true });
  embedded?.discard();
  const store: EventStore = embedded ? new SqliteEventStore(embedded.importing) : await openEventStoreDb(config.eventStoreUrl!);
  const appending = eventsBar(err, 'importing');
  const appendStarted = performance.now();
  let imported: number;
  try {
    if ((await store.headPosition()) !== '') throw new TargetRefused(`the event store at ${config.eventStoreUrl} is not empty`);
    appending.start(checked.events);
    imported = await appendExport(store, file, (done) => appending.update(done));
    appending.update(imported);
    const report = await store.verifyChain?.();
    if (report && (!report.verified || report.head_hash !== checked.headHash || report.checked !== checked.events)) {
      throw new Error(`the imported log does not end on the export's hash: ${JSON.stringify(report)}`);
    }
  } catch (error) {
    await store.close();
    embedded?.discard();
    throw error;
  } finally {
    appending.stop();
  }
  await store.close();
  embedded?.moveIntoPlace();
  const appendSeconds = (performance.now() - appendStarted) / 1000;
  out.write(`imported ${imported} events in ${appendSeconds.toFixed(2)} s (${Math.round(imported / Math.max(appendSeconds, 0.001))} events/s), chain checked up to ${checked.headHash}\n`);

  const rebuilding = eventsBar(err, 'rebuilding');
  const rebuilt = await rebuildProjections(config, (done) => rebuilding.update(done), (total) => rebuilding.start(total)).finally(() => rebuilding.stop());
  out.write(`rebuilt the projections from ${rebuilt.events} events in ${rebuilt.seconds.toFixed(2)} s; ${((performance.now() - started) / 1000).toFixed(2)} s in all\n`);
  return 0;
}

async function openEventStoreDb(url: string): Promise<EventStore> {
  return new (await import('../eventstoredb/event-store.js')).EventStoreDbEventStore(url);
}
