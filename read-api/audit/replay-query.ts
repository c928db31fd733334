import { DomainError } from '../../domain/errors.js';
import { queryBool, queryInt, queryString } from '../../api/query.js';
import type { ReplayFilter } from './replay-filter.js';

export type ReplayFormat = 'ndjson' | 'sse';

export type ReplayRequest = {
  readonly filter: ReplayFilter;
  /** Events strictly after this position ('' from the start). */
  readonly from: string;
  readonly format: ReplayFormat;
  /** Keep the response open and send new events as they are appended. */
  readonly follow: boolean;
  /** Most events to send, then the response ends; null for no limit. */
  readonly limit: number | null;
};

const invalid = (name: string, message: string): DomainError =>
  new DomainError('validation_error', `Invalid query parameter ${name}.`, { [name]: [message] });

const POSITION = /^(\d{1,20})(?::(\d{1,20}))?$/;
const TYPE = /^[A-Za-z][A-Za-z0-9_]{0,99}$/;
const MAX_TYPES = 50;
const MAX_NAME = 300;

/**
 * A position as the replay prints it (20 digits, or two groups of 20 on EventStoreDB),
 * leading zeros optional; '' is the start. Anything else is 422.
 */
export function parsePosition(value: string, name: string): string {
  if (value === '') return '';
  const match = POSITION.exec(value);
  if (!match?.[1]) throw invalid(name, 'must be a position from an earlier replay (digits, or commit:prepare digits)');
  const pad = (digits: string): string => digits.padStart(20, '0');
  return match[2] === undefined ? pad(match[1]) : `${pad(match[1])}:${pad(match[2])}`;
}

function name(query: Record<string, unknown>, param: string): string | undefined {
  const value = queryString(query, param);
  if (value === undefined) return undefined;
  if (value.length === 0 || value.length > MAX_NAME || /[\u0000-\u001f]/.test(value)) throw invalid(param, `must be 1 to ${MAX_NAME} printable characters`);
  return value;
}

function types(query: Record<string, unknown>): ReadonlySet<string> | undefined {
  const value = queryString(query, 'event_type');
  if (value === undefined) return undefined;
  const list = value.split(',');
  if (list.length > MAX_TYPES || list.some((t) => !TYPE.test(t))) {
    throw invalid('event_type', `must be up to ${MAX_TYPES} comma-separated event type names such as ResourceCreated`);
  }
  return new Set(list);
}

const KNOWN = new Set(['from', 'stream', 'stream_prefix', 'collection', 'event_type', 'format', 'follow', 'limit']);

/**
 * The replay's query: `from`, `stream`, `stream_prefix`, `collection`, `event_type`,
 * `format` (`ndjson`, `sse`; by default `sse` when the client accepts `text/event-stream`),
 * `follow`, `limit`. A `Last-Event-ID` header (an SSE reconnect) wins over `from`.
 */
export function replayRequest(query: Record<string, unknown>, accept: string | undefined, lastEventId: string | undefined, base: ReplayFilter): ReplayRequest {
  const unknown = Object.keys(query).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0) throw invalid(unknown[0]!, `is not a replay parameter (${[...KNOWN].join(', ')})`);
  const formatParam = queryString(query, 'format');
  if (formatParam !== undefined && formatParam !== 'ndjson' && formatParam !== 'sse') throw invalid('format', 'must be ndjson or sse');
  const format: ReplayFormat = formatParam ?? (accept?.includes('text/event-stream') ? 'sse' : 'ndjson');
  const fromQuery = parsePosition(queryString(query, 'from') ?? '', 'from');
  const from = lastEventId !== undefined ? parsePosition(lastEventId.trim(), 'Last-Event-ID') : fromQuery;
  const limit = queryString(query, 'limit') === undefined ? null : queryInt(query, 'limit', 0, 1);
  const stream = name(query, 'stream');
  const streamPrefix = name(query, 'stream_prefix');
  const collection = name(query, 'collection');
  const eventTypes = types(query);
  return {
    filter: {
      ...base,
      ...(stream === undefined ? {} : { stream }),
      ...(streamPrefix === undefined ? {} : { streamPrefix }),
      ...(collection === undefined ? {} : { collection }),
      ...(eventTypes === undefined ? {} : { types: eventTypes }),
    },
    from,
    format,
    follow: queryBool(query, 'follow', format === 'sse'),
    limit,
  };
}
