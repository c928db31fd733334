import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { DomainError } from '../../domain/errors.js';
import { replayLine } from '../../read-api/audit/replay-filter.js';
import { replayRequest } from '../../read-api/audit/replay-query.js';
import { runReplay, type ReplaySink } from '../../read-api/audit/replay-stream.js';
import { loadConfig } from '../config.js';
import { openEventStoreOf } from './event-store.js';

export const REPLAY_USAGE = `usage: npm run replay -- [--data-dir DIR] [--env KEY] [--from POSITION] [--stream NAME]
         [--stream-prefix PREFIX] [--collection KEY] [--event-type A,B] [--limit N] [--follow]
Prints the stored events after POSITION in global order, one JSON object per line.`;

const OPTIONS = {
  'data-dir': { type: 'string' },
  env: { type: 'string' },
  from: { type: 'string' },
  stream: { type: 'string' },
  'stream-prefix': { type: 'string' },
  collection: { type: 'string' },
  'event-type': { type: 'string' },
  limit: { type: 'string' },
  follow: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

/** `npm run replay`: the HTTP replay's filters over the data directory; answers the exit code. */
export async function replayCli(argv: readonly string[], env: NodeJS.ProcessEnv, out: Writable, err: Writable, stop?: Promise<void>): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}\n${REPLAY_USAGE}\n`);
    return 2;
  }
  if (args.help) {
    out.write(`${REPLAY_USAGE}\n`);
    return 0;
  }
  const query: Record<string, unknown> = {};
  const names = { from: 'from', stream: 'stream', 'stream-prefix': 'stream_prefix', collection: 'collection', 'event-type': 'event_type', limit: 'limit' } as const;
  for (const [flag, name] of Object.entries(names)) {
    const value = args[flag as keyof typeof names];
    if (value !== undefined) query[name] = value;
  }
  query.follow = args.follow ? 'true' : 'false';
  let request;
  try {
    if (args.env !== undefined && args.env === '') throw new DomainError('validation_error', 'Invalid --env.', { env: ['must not be empty'] });
    request = replayRequest(query, undefined, undefined, args.env === undefined ? {} : { env: args.env });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    err.write(`${error.message} ${JSON.stringify(error.detail)}\n${REPLAY_USAGE}\n`);
    return 2;
  }
  const store = await openEventStoreOf(loadConfig(args['data-dir'] === undefined ? env : { ...env, DATA_DIR: args['data-dir'] }));
  let closed = false;
  const ended = new Promise<void>((resolve) => {
    out.once('close', () => resolve());
    out.once('error', () => resolve());
    void stop?.then(resolve);
  }).then(() => {
    closed = true;
  });
  const sink: ReplaySink = {
    get closed() {
      return closed;
    },
    async send(event) {
      if (out.write(`${JSON.stringify(replayLine(event))}\n`)) return;
      await Promise.race([new Promise((resolve) => out.once('drain', resolve)), ended]);
    },
  };
  try {
    await runReplay(store, request, async () => true, sink, ended);
  } finally {
    await store.close();
  }
  return 0;
}
