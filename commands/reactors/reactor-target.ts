import type { ReadStore } from '../../projections/ports.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import type { Position, StoredEvent } from '../ports.js';

/**
 * What a reactor does for one event: issue commands and return the position of its last append
 * ('' for none), or null when the event is none of its business.
 */
export type Reaction = (event: StoredEvent) => Promise<Position | null>;

/** Events passed over before the checkpoint is stored anyway (replaying them is a no-op). */
const SAVE_EVERY = 10_000;

/**
 * A reactor (process manager) as a projection target: it follows `$all` from its own checkpoint
 * in the ReadStore, reacts to each event by issuing commands, then moves the checkpoint. A crash
 * between a reaction and its checkpoint runs the reaction again after the restart, so every
 * reaction must be idempotent (docs/decisions/0083).
 */
export function reactorTarget(name: string, store: ReadStore, react: Reaction): ProjectionTarget {
  let issued: Position = '';
  let unsaved = 0;
  return {
    name,
    checkpoint: () => store.checkpoint(name),
    async apply(events: readonly StoredEvent[], position: Position) {
      let reacted = false;
      for (const event of events) {
        const appended = await react(event);
        if (appended === null) continue;
        reacted = true;
        if (appended > issued) issued = appended;
      }
      // A batch with nothing to react to moves the checkpoint in memory only, stored now and
      // then: after a crash those events are read again and passed over again.
      unsaved += events.length;
      if (!reacted && unsaved < SAVE_EVERY) return;
      await store.unitOfWork(name, position, async () => {});
      unsaved = 0;
    },
    issued: () => issued,
  };
}
