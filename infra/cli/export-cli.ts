import { createWriteStream, renameSync, rmSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { openChainSource } from '../audit/chain-source.js';
import { serialiseLine } from '../audit/event-line.js';
import { loadConfig } from '../config.js';
import { eventsBar } from './progress-bar.js';

export const EXPORT_USAGE = `usage: npm run export -- --out FILE [--data-dir DIR]
Writes the event log as NDJSON, one event a line (position, stream, revision, id, type, created, data,
metadata, hash), oldest first. EVENTSTORE_URL set: the log of that EventStoreDB.`;

/** Writes `lines` to `file` through a `.partial` file renamed at the end: a failed export leaves no FILE. Answers the count. */
export async function writeLines(file: string, lines: AsyncIterable<string>, progress?: (done: number) => void): Promise<number> {
  const partial = `${file}.partial`;
  const out = createWriteStream(partial);
  let count = 0;
  try {
    for await (const line of lines) {
      if (!out.write(`${line}\n`)) await once(out, 'drain');
      count += 1;
      if (count % 1000 === 0) progress?.(count);
    }
    out.end();
    await once(out, 'finish');
  } catch (error) {
    out.destroy();
    rmSync(partial, { force: true });
    throw error;
  }
  renameSync(partial, file);
  return count;
}

/** `npm run export`: 0 when written, 2 on bad arguments. */
export async function exportCli(argv: readonly string[], env: NodeJS.ProcessEnv, out: Writable, err: Writable): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: [...argv], options: { out: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean' } }, strict: true }).values;
    if (!args.help && !args.out) throw new Error('--out FILE is required');
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}\n${EXPORT_USAGE}\n`);
    return 2;
  }
  if (args.help || !args.out) {
    out.write(`${EXPORT_USAGE}\n`);
    return 0;
  }
  const source = await openChainSource(loadConfig(args['data-dir'] === undefined ? env : { ...env, DATA_DIR: args['data-dir'] }));
  const bar = eventsBar(err, 'exporting');
  const started = performance.now();
  try {
    bar.start(source.total);
    const lines = async function* () {
      for await (const row of source.rows()) yield serialiseLine(row);
    };
    const count = await writeLines(args.out, lines(), (done) => bar.update(done));
    bar.update(count);
    bar.stop();
    const seconds = (performance.now() - started) / 1000;
    out.write(`exported ${count} events to ${args.out} in ${seconds.toFixed(2)} s (${Math.round(count / Math.max(seconds, 0.001))} events/s)\n`);
    return 0;
  } finally {
    bar.stop();
    await source.close();
  }
}
