import type { StoredChainRow } from './hash-chain.js';

/**
 * One event of an export as one line of NDJSON (`npm run export`, `npm run import`, the evidence
 * bundle of `npm run audit:bundle`): the only module that writes or reads the line format.
 * `data` and `metadata` are the stored JSON text, embedded as it is; `hash` is the stored chained
 * hash (docs/decisions/0071), never one recomputed by the export, so an edited log exports as one.
 */
export type EventLine = {
  readonly position: string;
  readonly stream: string;
  readonly revision: number;
  readonly id: string;
  readonly type: string;
  /** When the event was appended: its metadata's `timestamp`. */
  readonly created: string | null;
  readonly data: unknown;
  readonly metadata: Record<string, unknown>;
  readonly hash: string | null;
};

/** A line the format refuses, with its 1-based line number. */
export class LineError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'LineError';
  }
}

/** The line of a stored row (no trailing newline); the row's JSON text is copied, not parsed and written again. */
export function serialiseLine(row: StoredChainRow): string {
  const time = (JSON.parse(row.metadata) as { timestamp?: unknown }).timestamp;
  const timestamp = typeof time === 'string' ? JSON.stringify(time) : 'null';
  return (
    `{"position":${JSON.stringify(row.position)},"stream":${JSON.stringify(row.stream)},"revision":${row.revision},` +
    `"id":${JSON.stringify(row.id)},"type":${JSON.stringify(row.type)},"created":${timestamp},` +
    `"data":${row.data},"metadata":${row.metadata},"hash":${JSON.stringify(row.hash)}}`
  );
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** Reads one line (`number` is its 1-based line number for the errors). */
export function parseLine(text: string, number: number): EventLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LineError(number, `not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new LineError(number, 'not a JSON object');
  const line = value as Record<string, unknown>;
  for (const field of ['position', 'stream', 'id', 'type'] as const) {
    if (!isText(line[field]) || line[field] === '') throw new LineError(number, `${field} must be a non-empty string`);
  }
  if (!Number.isSafeInteger(line.revision) || (line.revision as number) < 0) throw new LineError(number, 'revision must be a non-negative integer');
  if (!('data' in line)) throw new LineError(number, 'data is missing');
  if (typeof line.metadata !== 'object' || line.metadata === null || Array.isArray(line.metadata)) throw new LineError(number, 'metadata must be an object');
  if (line.hash !== null && !(isText(line.hash) && /^[0-9a-f]{64}$/.test(line.hash))) throw new LineError(number, 'hash must be 64 hex digits or null');
  if (line.created !== null && line.created !== undefined && !isText(line.created)) throw new LineError(number, 'created must be a string or null');
  return line as EventLine;
}

/** What the chain covers of a line: the fields as the store keeps them (data and metadata as JSON text). */
export const chainRowOfLine = (line: EventLine): StoredChainRow => ({
  position: line.position,
  id: line.id,
  stream: line.stream,
  revision: line.revision,
  type: line.type,
  data: JSON.stringify(line.data),
  metadata: JSON.stringify(line.metadata),
  hash: line.hash,
});
