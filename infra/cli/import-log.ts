import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AppendResult, EventMetadata, EventStore, NewEvent } from '../../commands/ports.js';
import { exportLines } from '../audit/export-file.js';
import type { EventLine } from '../audit/event-line.js';
import type { Config } from '../config.js';

/** Appends in flight at most: the embedded store commits what is queued together (group commit). */
const IN_FLIGHT = 1024;

const removeDb = (file: string): void => {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
};

/** A run of lines of one stream, appended together. */
type Run = { stream: string; first: number; events: NewEvent[] };

/**
 * Appends the events of a checked export (`checkExport`) to `store` through the EventStore port,
 * in the export's order: each run of consecutive lines of one stream is one append, expecting the
 * revision before its first line. The store chains its own hashes, which are the export's when
 * the target starts empty.
 */
export async function appendExport(store: EventStore, file: string, progress?: (done: number) => void): Promise<number> {
  const inFlight = new Set<Promise<AppendResult>>();
  let failure: unknown = null;
  let done = 0;
  const send = async (run: Run): Promise<void> => {
    const append = store.appendToStream(run.stream, run.events, run.first === 0 ? 'no_stream' : run.first - 1);
    inFlight.add(append);
    append.then(
      () => {
        inFlight.delete(append);
        done += run.events.length;
      },
      (error: unknown) => {
        inFlight.delete(append);
        failure ??= error;
      },
    );
    if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight).catch(() => undefined);
    if (failure !== null) throw failure;
    progress?.(done);
  };
  let run: Run | null = null;
  for await (const { line } of exportLines(file)) {
    if (run && run.stream === line.stream) {
      run.events.push(newEvent(line));
      continue;
    }
    if (run) await send(run);
    run = { stream: line.stream, first: line.revision, events: [newEvent(line)] };
  }
  if (run) await send(run);
  await Promise.allSettled([...inFlight]);
  if (failure !== null) throw failure;
  return done;
}

const newEvent = (line: EventLine): NewEvent => ({ id: line.id, type: line.type, data: line.data, metadata: line.metadata as EventMetadata });

/**
 * The embedded target: `events.db` of the data directory is written as `events.importing.db`
 * and renamed into place only when every event is in, so a failed import leaves no events.db.
 */
export const embeddedTarget = (config: Config) => {
  const file = join(config.dataDir, 'events.db');
  const importing = join(config.dataDir, 'events.importing.db');
  return {
    file,
    importing,
    discard: () => removeDb(importing),
    /** After the store on `importing` is closed. */
    moveIntoPlace(): void {
      rmSync(`${importing}-shm`, { force: true });
      if (existsSync(`${importing}-wal`)) renameSync(`${importing}-wal`, `${file}-wal`);
      renameSync(importing, file);
    },
  };
};
