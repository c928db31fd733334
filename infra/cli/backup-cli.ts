import { SingleBar, Presets } from 'cli-progress';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { Database } from '../sqlite/driver.js';

export const BACKUP_USAGE = `usage: npm run backup -- --out DIR [--data-dir DIR]
Copies the data directory of a running (or stopped) service into DIR, a new or empty folder,
without stopping its writes: every SQLite file with SQLite's online backup, the read side's
before the event store's, then the small files (bootstrap.json, jwt-secret). Prints a JSON report.`;

/** The event store goes last: a copy's projections are then never ahead of its events, and catch up from their checkpoints on start. */
const EVENTS = 'events.db';
/** A rebuild's working files are not data: a rebuild that is not finished starts over. */
const TRANSIENT = /\.rebuilding\.db$|-wal$|-shm$|-journal$|\.tmp$/;

type Copied = { readonly file: string; readonly bytes: number };

/** One SQLite file copied in a single step of the online backup API: one read transaction, so writers go on and nothing restarts it. */
async function backupDatabase(source: string, target: string): Promise<void> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(target, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
}

/** `npm run backup`: 0 when copied, 2 on bad arguments, a missing data directory or a target that is not empty. */
export async function backupCli(argv: readonly string[], env: NodeJS.ProcessEnv, out: Writable, err: Writable & { isTTY?: boolean }): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: [...argv], options: { out: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean' } }, strict: true }).values;
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}\n${BACKUP_USAGE}\n`);
    return 2;
  }
  if (args.help) {
    out.write(`${BACKUP_USAGE}\n`);
    return 0;
  }
  if (!args.out) {
    err.write(`--out is required\n${BACKUP_USAGE}\n`);
    return 2;
  }
  const config = loadConfig(args['data-dir'] === undefined ? env : { ...env, DATA_DIR: args['data-dir'] });
  if (config.eventStoreUrl || config.mongoUrl || config.openSearchUrl) {
    err.write('npm run backup copies the embedded SQLite stores; EventStoreDB, MongoDB and OpenSearch have backups of their own\n');
    return 2;
  }
  const from = config.dataDir;
  const to = resolve(args.out);
  if (!existsSync(join(from, EVENTS))) {
    err.write(`no event store at ${join(from, EVENTS)} (set DATA_DIR or --data-dir)\n`);
    return 2;
  }
  if (existsSync(to) && readdirSync(to).length > 0) {
    err.write(`${to} is not empty: a backup goes into a new or empty folder\n`);
    return 2;
  }
  mkdirSync(to, { recursive: true });
  const files = readdirSync(from).filter((name) => statSync(join(from, name)).isFile() && !TRANSIENT.test(name));
  const databases = files.filter((name) => name.endsWith('.db')).sort((a, b) => Number(a === EVENTS) - Number(b === EVENTS));
  const small = files.filter((name) => !name.endsWith('.db'));
  const bar = new SingleBar({ stream: err, format: 'backing up [{bar}] {value}/{total} files | {file}', noTTYOutput: false }, Presets.shades_classic);
  bar.start(databases.length + small.length, 0, { file: '' });
  const started = performance.now();
  const copied: Copied[] = [];
  try {
    for (const name of databases) {
      bar.update(copied.length, { file: name });
      await backupDatabase(join(from, name), join(to, name));
      copied.push({ file: name, bytes: statSync(join(to, name)).size });
    }
    // Written once at first start (bootstrap.json renamed into place whole), so a plain copy is consistent; the mode (0600) is kept.
    for (const name of small) {
      copyFileSync(join(from, name), join(to, name));
      copied.push({ file: name, bytes: statSync(join(to, name)).size });
    }
    bar.update(copied.length, { file: '' });
  } finally {
    bar.stop();
  }
  out.write(`${JSON.stringify({ from, to, seconds: Number(((performance.now() - started) / 1000).toFixed(3)), files: copied }, null, 2)}\n`);
  return 0;
}
