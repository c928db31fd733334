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

/**
 * A reactor that writes tables of its own (webhooks, the scheduler): a batch with nothing for it
 * (`concerns` false) is passed over without a unit of work, its checkpoint moved in memory and
 * stored every SAVE_EVERY events, as reactorTarget does (decision 0083); a batch that concerns it
 * is applied with its checkpoint. Events passed over and read again after a crash concern it no more.
 */
export function sparseCheckpoints<T extends ProjectionTarget>(store: ReadStore, target: T, concerns: (events: readonly StoredEvent[]) => boolean): T {
  let unsaved = 0;
  return {
    ...target,
    async apply(events: readonly StoredEvent[], position: Position) {
      if (concerns(events)) {
        await target.apply(events, position);
        unsaved = 0;
        return;
      }
      unsaved += events.length;
      if (unsaved < SAVE_EVERY) return;
      await store.unitOfWork(target.name, position, async () => {});
      unsaved = 0;
    },
  };
}
