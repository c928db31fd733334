import type { Decider, Message } from '../decider.js';
import { DomainError } from '../errors.js';

/**
 * The reservation of one `external_id` inside one collection (a stream named after the
 * value): whoever claims it first owns it. A claim by the owner again is a no-op; a claim
 * whose owner never came to exist (its create failed after the claim) is taken over, and so
 * is the claim of a deleted resource (its external_id is free again).
 */

export type ExternalIdClaimed = Message<
  'ExternalIdClaimed',
  { readonly env: string; readonly folder: string; readonly external_id: string; readonly resource: string; readonly claimed_at: string }
>;
export type ExternalIdEvent = ExternalIdClaimed;

export type ClaimExternalId = Message<
  'ClaimExternalId',
  ExternalIdClaimed['data'] & {
    /** Whether the current owner's resource stream exists, looked up by the handler. */
    readonly ownerExists: boolean;
    /** Whether the current owner was deleted: its external_id is free again. */
    readonly ownerDeleted: boolean;
    readonly now: string;
  }
>;

export type ExternalIdState = { readonly owner: string | null; readonly claimed_at: string };

/** A claim whose resource does not exist this long after it is taken to be left by a failed create. */
export const STALE_CLAIM_MS = 60_000;

export const externalId: Decider<ExternalIdState, ClaimExternalId, ExternalIdEvent> = {
  initialState: () => ({ owner: null, claimed_at: '' }),
  evolve: (_state, event) => ({ owner: event.data.resource, claimed_at: event.data.claimed_at }),
  decide: ({ data }, state) => {
    const { ownerExists, ownerDeleted, now, ...claim } = data;
    if (state.owner === claim.resource) return [];
    const stale = !ownerExists && Date.parse(now) - Date.parse(state.claimed_at) > STALE_CLAIM_MS;
    if (state.owner !== null && !stale && !ownerDeleted) {
      throw new DomainError('external_id_conflict', 'The external_id is already used in this collection.', { external_id: claim.external_id });
    }
    return [{ type: 'ExternalIdClaimed', data: claim }];
  },
};
