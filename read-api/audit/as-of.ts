import type { StoredEvent } from '../../commands/ports.js';
import { DomainError } from '../../domain/errors.js';
import { queryDatetime, queryString } from '../../api/query.js';
import { parsePosition } from './replay-query.js';

/**
 * A point in the past (docs/decisions/0072): a time (the events whose metadata timestamp is
 * at or before it), a global position (events at or before it, as the replay prints them), or
 * a stream revision of one resource (its first revision + 1 events).
 */
export type AsOf =
  | { readonly kind: 'timestamp'; readonly at: number }
  | { readonly kind: 'position'; readonly position: string }
  | { readonly kind: 'revision'; readonly revision: number };

const invalid = (message: string): DomainError => new DomainError('validation_error', 'Invalid query parameter as_of.', { as_of: [message] });

const FORMS = 'an ISO 8601 datetime, position:<position> or revision:<stream revision>';

/** `as_of` from the query, or null when absent; `revision:` only where one stream is read. */
export function asOfQuery(query: Record<string, unknown>, allowRevision: boolean): AsOf | null {
  const value = queryString(query, 'as_of');
  if (value === undefined) return null;
  if (value.startsWith('position:')) {
    const position = parsePosition(value.slice('position:'.length), 'as_of');
    if (position === '') throw invalid(`must be ${FORMS}`);
    return { kind: 'position', position };
  }
  if (value.startsWith('revision:')) {
    if (!allowRevision) throw invalid('revision: names a revision of one resource stream; use a datetime or position: on a list');
    const digits = value.slice('revision:'.length);
    if (!/^\d{1,15}$/.test(digits)) throw invalid(`must be ${FORMS}`);
    return { kind: 'revision', revision: Number(digits) };
  }
  let at: string | undefined;
  try {
    at = queryDatetime({ as_of: value }, 'as_of');
  } catch {
    throw invalid(`must be ${FORMS}`);
  }
  return { kind: 'timestamp', at: Date.parse(at!) };
}

/** Whether a stored event had happened at the point. */
export function happenedBy(asOf: AsOf, event: StoredEvent): boolean {
  switch (asOf.kind) {
    case 'timestamp': {
      const at = Date.parse(event.metadata.timestamp);
      return !Number.isNaN(at) && at <= asOf.at;
    }
    case 'position':
      return event.position <= asOf.position;
    case 'revision':
      return event.revision <= asOf.revision;
  }
}
