import type { Position, StoredEvent } from '../../commands/ports.js';
import type { Doc } from '../../projections/ports.js';

/**
 * A batch's events as the thread gets them: the events themselves, or where they lie in the
 * embedded event store (positions `from` to `to`, `count` events), which the thread reads from
 * the file itself instead of the main thread copying them into the message (docs/decisions/0307).
 */
export type BatchEvents = { readonly events: readonly StoredEvent[] } | { readonly range: { readonly from: number; readonly to: number; readonly count: number } };

/** What the main thread asks the read side's thread (docs/decisions/0307). */
export type ReadSideRequest =
  | ({ readonly kind: 'apply'; readonly id: number; readonly target: string; readonly position: Position } & BatchEvents)
  | { readonly kind: 'close' };

/**
 * A batch's outcome; a committed read-model batch hands over the resources it left (docs/decisions/0296).
 * `resend`: the range did not hold the batch's events (nothing was applied): send the events.
 */
export type ReadSideReply =
  | { readonly ok: true; readonly handed?: { readonly docs: ReadonlyMap<string, Doc | null>; readonly removed: boolean } }
  | { readonly ok: false; readonly message: string; readonly resend?: boolean };
