import { SingleBar, Presets } from 'cli-progress';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { ImportRefused, openContentImport, type ContentImport, type Refused } from './import-content-process.js';
import pino from 'pino';

export const IMPORT_CONTENT_USAGE = `usage: npm run import:content -- --collection KEY_OR_PATH --in FILE.ndjson [--strict]
       [--data-dir DIR] [--env ENVIRONMENT] [--concurrency N (256)]
Loads resources into a collection of the data directory (DATA_DIR, or --data-dir, and the
engines' settings the service uses), whether or not a service runs on it: each line of FILE is
one resource, written through the command path as the management API's create request with
that body ({"data": {...}, "name", "mode", ...}) would be; a line with "external_id" is an
upsert (PUT ?external_id=), so running the file again updates instead of duplicating. The writer
is the user whose token bootstrap.json holds; the environment defaults to bootstrap.json's. A bad
line is reported with its number and the API's answer, and the rest goes on; --strict stops at
the first. Exits 1 when a line was refused.`;

/**
 * Lines written at once by default: their appends share the event store's group commits
 * (docs/decisions/0389).
 */
export const DEFAULT_CONCURRENCY = 256;

/** A refused line: its number, the status and the error body the management API answers the same write with. */
type Refusal = Refused & { readonly line: number };

/**
 * `npm run import:content`: each line becomes the management API's create (or, with
 * `external_id`, upsert) of a resource, run in this process on the data directory through the
 * service's own composition, N lines at once (docs/decisions/0389).
 */
export async function importContentCli(argv: readonly string[], env: NodeJS.ProcessEnv, out: Writable, err: Writable & { isTTY?: boolean }): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: [...argv],
      options: {
        collection: { type: 'string' },
        in: { type: 'string' },
        strict: { type: 'boolean' },
        'data-dir': { type: 'string' },
        env: { type: 'string' },
        concurrency: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}\n${IMPORT_CONTENT_USAGE}\n`);
    return 2;
  }
  if (args.help) {
    out.write(`${IMPORT_CONTENT_USAGE}\n`);
    return 0;
  }
  const concurrency = Number(args.concurrency ?? DEFAULT_CONCURRENCY);
  if (!args.collection || !args.in || !Number.isInteger(concurrency) || concurrency < 1 || concurrency > 4096) {
    err.write(`--collection and --in are required; --concurrency is 1 to 4096\n${IMPORT_CONTENT_USAGE}\n`);
    return 2;
  }
  if (!existsSync(args.in)) {
    err.write(`no file ${args.in}\n`);
    return 2;
  }
  const config = loadConfig(args['data-dir'] === undefined ? env : { ...env, DATA_DIR: args['data-dir'] });
  // The log goes to the error stream: the output is the JSON report.
  const logger = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, base: undefined }, err);
  let target: ContentImport;
  try {
    target = await openContentImport(config, logger, args.env);
  } catch (error) {
    if (!(error instanceof ImportRefused)) throw error;
    err.write(`${error.message}\n`);
    return 2;
  }
  try {
    const folder = await target.collectionKey(args.collection);
    if (folder === null) {
      err.write(`no collection with the key or path ${args.collection} in environment ${target.env}\n`);
      return 2;
    }
    return await load(target, folder, args.in, { strict: args.strict === true, concurrency }, out, err);
  } finally {
    await target.close();
  }
}

/** How long the import waits, after its last line, for the projections to hold what it wrote. */
const CATCH_UP_MS = 10 * 60_000;

async function load(target: ContentImport, folder: string, file: string, o: { strict: boolean; concurrency: number }, out: Writable, err: Writable): Promise<number> {
  const refused: Refusal[] = [];
  const report = (refusal: Refusal) => {
    refused.push(refusal);
    err.write(`line ${refusal.line}: ${refusal.status} ${JSON.stringify(refusal.body)}\n`);
  };
  const one = async (line: number, text: string): Promise<void> => {
    const refusal = await target.write(folder, text);
    if (refusal !== null) report({ line, ...refusal });
  };

  const bar = new SingleBar({ stream: err, format: 'importing [{bar}] {percentage}% | {lines} lines | {rate} lines/s | ETA {eta}s', noTTYOutput: false }, Presets.shades_classic);
  bar.start(statSync(file).size, 0, { lines: 0, rate: 0 });
  const started = performance.now();
  // At most `concurrency` requests in flight: the reader waits for one to end when they are all out.
  let inFlight = 0;
  let freed: (() => void) | null = null;
  const ended = (): void => {
    inFlight--;
    const wake = freed;
    freed = null;
    wake?.();
  };
  const oneEnds = () => new Promise<void>((resolve) => (freed = resolve));
  let lines = 0;
  let resources = 0;
  let bytes = 0;
  try {
    const reader = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    for await (const text of reader) {
      lines++;
      bytes += Buffer.byteLength(text) + 1;
      if (text.trim() === '') continue;
      if (o.strict && refused.length > 0) break;
      resources++;
      inFlight++;
      const line = lines;
      void one(line, text)
        .catch((error: unknown) => report({ line, status: 500, body: { message: String(error), error_code: 'internal_error', detail: null } }))
        .finally(ended);
      if (inFlight >= o.concurrency) await oneEnds();
      if (lines % 500 === 0) bar.update(bytes, { lines, rate: Math.round(lines / ((performance.now() - started) / 1000)) });
    }
    while (inFlight > 0) await oneEnds();
  } finally {
    bar.update(bytes, { lines, rate: Math.round(lines / Math.max((performance.now() - started) / 1000, 0.001)) });
    bar.stop();
  }
  const written = (performance.now() - started) / 1000;
  // Before it ends: the imported resources are readable through delivery and management (projected here, or by the running service).
  const projected = await target.caughtUp(CATCH_UP_MS);
  const seconds = (performance.now() - started) / 1000;
  const firstRefused = refused.reduce((first, r) => Math.min(first, r.line), Infinity);
  const summary = {
    collection: folder,
    lines: resources,
    accepted: resources - refused.length,
    refused: refused.length,
    stopped_at_line: o.strict && refused.length > 0 ? firstRefused : null,
    // Written: the last line's command answered; the rate is up to readable (projected).
    written_seconds: Number(written.toFixed(2)),
    seconds: Number(seconds.toFixed(2)),
    per_second: Math.round(resources / Math.max(seconds, 0.001)),
    projected,
  };
  out.write(`${JSON.stringify(summary)}\n`);
  return refused.length > 0 ? 1 : 0;
}
