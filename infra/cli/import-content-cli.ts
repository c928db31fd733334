import { SingleBar, Presets } from 'cli-progress';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';

export const IMPORT_CONTENT_USAGE = `usage: npm run import:content -- --collection KEY_OR_PATH --in FILE.ndjson [--strict]
       [--data-dir DIR] [--url MANAGEMENT_URL --token TOKEN --env ENVIRONMENT] [--concurrency N (128)]
Loads resources into a collection through the running service's management API: each line of
FILE is one resource, as the create request's body ({"data": {...}, "name", "mode", ...}); a line
with "external_id" is an upsert (PUT ?external_id=), so running the file again updates instead of
duplicating. URL, token and environment default to the data directory's bootstrap.json. A bad line
is reported with its number and the rest goes on; --strict stops at the first. Exits 1 when a line
was refused.`;

/**
 * Requests in flight by default: with 32 the service's main thread spent about a fifth more CPU
 * a resource than with 128 (smaller group commits and projection batches), and it is the
 * import's bottleneck (docs/decisions/0383).
 */
export const DEFAULT_CONCURRENCY = 128;

type Target = { readonly url: URL; readonly token: string; readonly env: string };
type Answer = { readonly status: number; readonly body: string };
/** A refused line: its number, the status and the error body (or why it was not sent). */
type Refusal = { readonly line: number; readonly status: number | null; readonly error: unknown };

/** One management request on a kept-alive connection; `path` is absolute (from the service's origin). */
function send(agent: Agent, target: Target, method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${target.token}` };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const req = request({ protocol: target.url.protocol, hostname: target.url.hostname, port: target.url.port, method, path, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** A path of the management API, under the URL's own path when the service is behind a prefix. */
const pathOf = (target: Target, path: string): string => `${target.url.pathname.replace(/\/$/, '')}${path}`;

/** The collection's key, from its key or its path (`blog/articles`). */
async function collectionKey(agent: Agent, target: Target, keyOrPath: string): Promise<string | null> {
  for (const by of ['key', 'path']) {
    const answer = await send(agent, target, 'GET', pathOf(target, `/v1/${target.env}/collections/tree/collection/?${by}=${encodeURIComponent(keyOrPath)}`));
    if (answer.status === 200) return (JSON.parse(answer.body) as { key: string }).key;
  }
  return null;
}

function targetOf(args: { url?: string; token?: string; env?: string; 'data-dir'?: string }, env: NodeJS.ProcessEnv): Target {
  const file = join(loadConfig(args['data-dir'] === undefined ? env : { ...env, DATA_DIR: args['data-dir'] }).dataDir, 'bootstrap.json');
  const saved = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { base_url: string; management_token: string; environment: string }) : null;
  const url = args.url ?? saved?.base_url;
  const token = args.token ?? saved?.management_token;
  const environment = args.env ?? saved?.environment;
  if (!url || !token || !environment) throw new Error(`no ${file}: give --url, --token and --env`);
  return { url: new URL(url), token, env: environment };
}

/**
 * `npm run import:content`: each line becomes the management API's create (or, with
 * `external_id`, upsert) of a resource, with `wait=false`, N requests in flight on kept-alive
 * connections (docs/decisions/0351, 0383).
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
        url: { type: 'string' },
        token: { type: 'string' },
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
  if (!args.collection || !args.in || !Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1024) {
    err.write(`--collection and --in are required; --concurrency is 1 to 1024\n${IMPORT_CONTENT_USAGE}\n`);
    return 2;
  }
  if (!existsSync(args.in)) {
    err.write(`no file ${args.in}\n`);
    return 2;
  }
  let target: Target;
  try {
    target = targetOf(args, env);
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    const folder = await collectionKey(agent, target, args.collection);
    if (folder === null) {
      err.write(`no collection with the key or path ${args.collection} in environment ${target.env}\n`);
      return 2;
    }
    return await load(agent, target, folder, args.in, { strict: args.strict === true, concurrency }, out, err);
  } finally {
    agent.destroy();
  }
}

async function load(agent: Agent, target: Target, folder: string, file: string, o: { strict: boolean; concurrency: number }, out: Writable, err: Writable): Promise<number> {
  const base = pathOf(target, `/v1/${target.env}/collections/${folder}/resources/`);
  const refused: Refusal[] = [];
  const report = (refusal: Refusal) => {
    refused.push(refusal);
    err.write(`line ${refusal.line}: ${refusal.status ?? 'not sent'} ${JSON.stringify(refusal.error)}\n`);
  };
  const one = async (line: number, text: string): Promise<void> => {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      return report({ line, status: null, error: { message: `not JSON: ${error instanceof Error ? error.message : String(error)}` } });
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return report({ line, status: null, error: { message: 'not a JSON object' } });
    const { external_id: externalId, ...rest } = body as Record<string, unknown>;
    const upsert = typeof externalId === 'string';
    const answer = upsert
      ? await send(agent, target, 'PUT', `${base}?wait=false&external_id=${encodeURIComponent(externalId)}`, JSON.stringify(rest))
      : await send(agent, target, 'POST', `${base}?wait=false`, text);
    if (answer.status >= 300) report({ line, status: answer.status, error: parsed(answer.body) });
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
        .catch((error: unknown) => report({ line, status: null, error: { message: String(error) } }))
        .finally(ended);
      if (inFlight >= o.concurrency) await oneEnds();
      if (lines % 500 === 0) bar.update(bytes, { lines, rate: Math.round(lines / ((performance.now() - started) / 1000)) });
    }
    while (inFlight > 0) await oneEnds();
  } finally {
    bar.update(bytes, { lines, rate: Math.round(lines / Math.max((performance.now() - started) / 1000, 0.001)) });
    bar.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  out.write(
    `${JSON.stringify({ collection: folder, lines: resources, accepted: resources - refused.length, refused: refused.length, stopped_at_line: o.strict && refused.length > 0 ? refused[0]!.line : null, seconds: Number(seconds.toFixed(2)), per_second: Math.round(resources / Math.max(seconds, 0.001)) })}\n`,
  );
  return refused.length > 0 ? 1 : 0;
}
