import { externalId, type ClaimExternalId } from '../../domain/external-id/decider.js';
import type { ExternalIdClaimed } from '../../domain/external-id/decider.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(externalId);
const at = '2026-01-01T00:00:00.000Z';
const claim = (resource: string, extra: Partial<ClaimExternalId['data']> = {}): ClaimExternalId => ({
  type: 'ClaimExternalId',
  data: { env: 'e', folder: 'c1', external_id: 'sku-1', resource, claimed_at: at, now: at, ownerExists: false, ownerDeleted: false, ...extra },
});
const claimed = (resource: string, claimed_at = at): ExternalIdClaimed => ({
  type: 'ExternalIdClaimed',
  data: { env: 'e', folder: 'c1', external_id: 'sku-1', resource, claimed_at },
});

describe('external_id reservation decider', () => {
  it('claims a free external_id', () => {
    spec.given([]).when(claim('r1')).then([claimed('r1')]);
  });

  it('is a no-op for the owner claiming again', () => {
    spec.given([claimed('r1')]).when(claim('r1', { ownerExists: true })).then([]);
  });

  it('refuses another resource with external_id_conflict while the owner exists', () => {
    spec.given([claimed('r1')]).when(claim('r2', { ownerExists: true })).thenThrows('external_id_conflict');
  });

  it('refuses a takeover of a fresh claim whose resource is still being created', () => {
    spec.given([claimed('r1')]).when(claim('r2', { ownerExists: false, now: '2026-01-01T00:00:30.000Z' })).thenThrows('external_id_conflict');
  });

  it('takes over at once the claim of a deleted resource: its external_id is free again', () => {
    spec.given([claimed('r1')]).when(claim('r2', { ownerExists: true, ownerDeleted: true })).then([claimed('r2')]);
  });

  it('takes over a stale claim whose resource never came to exist', () => {
    const later = '2026-01-01T00:05:00.000Z';
    spec.given([claimed('r1')]).when(claim('r2', { ownerExists: false, now: later, claimed_at: later })).then([claimed('r2', later)]);
  });
});
