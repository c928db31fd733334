import type { ReadStore } from '../../projections/ports.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import type { Position, StoredEvent } from '../ports.js';

/** What a reactor does for one event: issue commands, return the position of its last append ('' for none). */
export type Reaction = (event: StoredEvent) => Promise<Position>;

/**
 * A reactor (process manager) as a projection target: it follows `$all` from its own checkpoint
 * in the ReadStore, reacts to each event by issuing commands, then moves the checkpoint. A crash
 * between a reaction and its checkpoint runs the reaction again after the restart, so every
 * reaction must be idempotent (docs/decisions/0083).
 */
export function reactorTarget(name: string, store: ReadStore, react: Reaction): ProjectionTarget {
  let issued: Position = '';
  return {
    name,
    checkpoint: () => store.checkpoint(name),
    async apply(events: readonly StoredEvent[], position: Position) {
      for (const event of events) {
        const appended = await react(event);
        if (appended > issued) issued = appended;
      }
      await store.unitOfWork(name, position, async () => {});
    },
    issued: () => issued,
  };
}
