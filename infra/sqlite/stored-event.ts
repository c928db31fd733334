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
