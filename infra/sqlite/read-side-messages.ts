import type { Position, StoredEvent } from '../../commands/ports.js';
import type { Doc } from '../../projections/ports.js';
import type { CommittedRow } from './event-store.js';

/** What the main thread asks the read side's thread (docs/decisions/0307). */
export type ReadSideRequest =
  | {
      readonly kind: 'apply';
      readonly id: number;
      readonly target: string;
      /** The batch's events, or the id of the request before that carried the same ones (docs/decisions/0311). */
      readonly events: readonly StoredEvent[] | { readonly sameAs: number };
      readonly position: Position;
    }
  /** A group's rows just committed, before their WAL sync: applied, not committed, until their batches come (docs/decisions/0313). */
  | { readonly kind: 'preview'; readonly rows: readonly CommittedRow[] }
  | { readonly kind: 'close' };

/** A batch's outcome; a committed read-model batch hands over the resources it left (docs/decisions/0296). */
export type ReadSideReply =
  | { readonly ok: true; readonly handed?: { readonly docs: ReadonlyMap<string, Doc | null>; readonly removed: boolean } }
  | { readonly ok: false; readonly message: string };

/**
 * The outcomes of the batches the thread applied at once, each with its request's id, in one
 * message (docs/decisions/0311); `previewed`: committed from a preview (docs/decisions/0313).
 */
export type ReadSideReplies = readonly (ReadSideReply & { readonly id: number; readonly previewed?: true })[];
