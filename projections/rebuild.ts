import type { EventStore, Position } from '../commands/ports.js';
import type { ProjectionTarget } from './runner.js';

/**
 * Events per unit of work while rebuilding. Small enough that a page's parsed events die in the
 * young generation: at 5,000 they outlived several scavenges and were copied and promoted, and
 * the collector's threads cost about 0.1 s more CPU at 20,000 events (docs/decisions/0295).
 */
export const REBUILD_PAGE = 500;

export type ReplayProgress = (applied: number, position: Position) => void;

/**
 * Feeds every event after `from`, in global order, to every target, a page per unit of
 * work, until the head seen at the start of each page is reached. Answers the last
 * position applied and the number of events.
 */
export async function replayInto(
  store: Pick<EventStore, 'readAll'>,
  targets: readonly ProjectionTarget[],
  from: Position,
  progress?: ReplayProgress,
  page = REBUILD_PAGE,
): Promise<{ readonly position: Position; readonly events: number }> {
  let position = from;
  let events = 0;
  for (let batch = await store.readAll(position, page); batch.length > 0; batch = await store.readAll(position, page)) {
    const last = batch[batch.length - 1]!.position;
    for (const target of targets) await target.apply(batch, last);
    position = last;
    events += batch.length;
    progress?.(events, position);
  }
  return { position, events };
}
