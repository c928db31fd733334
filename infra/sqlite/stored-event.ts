import type { Position, StoredEvent } from '../../commands/ports.js';

/** A row of the events table as text: `data` and `metadata` are the stored JSON. */
export type EventText = { readonly id: string; readonly stream: string; readonly revision: number; readonly type: string; readonly data: string; readonly metadata: string };

/**
 * A stored row as the event it holds: the one parse of the log's rows, shared by the event store's
 * `$all` pages and the read side's previews (docs/decisions/0313), so both hand projections the same events.
 */
export const storedEvent = (row: EventText, position: Position): StoredEvent => ({
  id: row.id,
  stream: row.stream,
  revision: row.revision,
  position,
  type: row.type,
  data: JSON.parse(row.data),
  metadata: JSON.parse(row.metadata),
});

/** The stored text of the `$all` pages' events, while they live (docs/decisions/0328). */
const texts = new WeakMap<StoredEvent, EventText>();

/**
 * `storedEvent`, and the row's text kept beside the event: whoever copies the event to another
 * thread can send the text instead (flat strings, cheaper to copy than the parsed objects), and
 * the other side's parse of it gives the same event (docs/decisions/0328).
 */
export const storedEventKeepingText = (row: EventText, position: Position): StoredEvent => {
  const event = storedEvent(row, position);
  texts.set(event, row);
  return event;
};

/** The stored text `event` was made from by `storedEventKeepingText`, if it was. */
export const textOf = (event: StoredEvent): EventText | undefined => texts.get(event);
