import type { Position, StoredEvent } from '../../commands/ports.js';
import type { Doc } from '../../projections/ports.js';

/** What the main thread asks the read side's thread (docs/decisions/0307). */
export type ReadSideRequest =
  | { readonly kind: 'apply'; readonly id: number; readonly target: string; readonly events: readonly StoredEvent[]; readonly position: Position }
  | { readonly kind: 'close' };

/** A batch's outcome; a committed read-model batch hands over the resources it left (docs/decisions/0296). */
export type ReadSideReply =
  | { readonly ok: true; readonly handed?: { readonly docs: ReadonlyMap<string, Doc | null>; readonly removed: boolean } }
  | { readonly ok: false; readonly message: string };
