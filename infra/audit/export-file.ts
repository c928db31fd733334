import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ChainVerifier } from './hash-chain.js';
import { chainRowOfLine, LineError, parseLine, type EventLine } from './event-line.js';

/** The lines of an export file, parsed, with their 1-based numbers. */
export async function* exportLines(file: string): AsyncGenerator<{ readonly line: EventLine; readonly number: number }> {
  // The default 64 KiB chunks: an import's group commits take about 67 appends each, and reading the next
  // chunks overlaps their WAL syncs; 1 MiB chunks made 15 times fewer commits and a slower import (docs/benchmark.md).
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let number = 0;
  for await (const text of lines) {
    number += 1;
    yield { line: parseLine(text, number), number };
  }
}

export type ExportCheck = { readonly events: number; readonly headHash: string | null };

/**
 * Reads a whole export and checks it as the store would take it: every line well formed, the
 * hash chain recomputed from the first line (docs/decisions/0071) and each stream's revisions
 * following on. Throws a LineError naming the first line that fails; writes nothing.
 */
export async function checkExport(file: string, progress?: (done: number) => void): Promise<ExportCheck> {
  const verifier = new ChainVerifier();
  const heads = new Map<string, number>();
  let events = 0;
  for await (const { line, number } of exportLines(file)) {
    if (!verifier.next(chainRowOfLine(line))) {
      const reason = line.hash === null ? 'has no hash' : 'breaks the hash chain (this event or one before it was changed, inserted or removed)';
      throw new LineError(number, `event ${line.id} (${line.stream} revision ${line.revision}) ${reason}`);
    }
    const expected = (heads.get(line.stream) ?? -1) + 1;
    if (line.revision !== expected) throw new LineError(number, `${line.stream} revision ${line.revision} does not follow revision ${expected - 1}`);
    heads.set(line.stream, line.revision);
    events += 1;
    if (events % 1000 === 0) progress?.(events);
  }
  return { events, headHash: verifier.report().head_hash };
}
