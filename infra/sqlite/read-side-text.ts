import type { Position, StoredEvent } from '../../commands/ports.js';
import { storedEvent, textOf } from './stored-event.js';

/** Fields a batch's event takes in its flat text form: id, stream, revision, position, type, data, metadata. */
const FIELDS = 7;

/**
 * A batch's events as their stored rows' text, flat (strings and the revision's number), or null
 * when any of them was not made from a row kept with its text (docs/decisions/0328). The
 * structured clone of a flat array of strings costs the posting thread about a third of the
 * events' nested objects; the thread parses the JSON on its own core.
 */
export function batchText(events: readonly StoredEvent[]): (string | number)[] | null {
  // Pushed, not preallocated: a holey array is serialised key by key, a packed one as a list.
  const flat: (string | number)[] = [];
  for (const event of events) {
    const row = textOf(event);
    if (row === undefined) return null;
    flat.push(row.id, row.stream, row.revision, event.position, row.type, row.data, row.metadata);
  }
  return flat;
}

/** The events of `batchText`'s form, parsed as the event store parses its rows (`storedEvent`): the same events. */
export function eventsOfText(flat: readonly (string | number)[]): StoredEvent[] {
  if (flat.length % FIELDS !== 0) throw new Error(`a batch's text has ${flat.length} fields, not a multiple of ${FIELDS}`);
  const events: StoredEvent[] = new Array<StoredEvent>(flat.length / FIELDS);
  for (let at = 0, i = 0; at < flat.length; at += FIELDS, i++) {
    const row = { id: flat[at] as string, stream: flat[at + 1] as string, revision: flat[at + 2] as number, type: flat[at + 4] as string, data: flat[at + 5] as string, metadata: flat[at + 6] as string };
    events[i] = storedEvent(row, flat[at + 3] as Position);
  }
  return events;
}
