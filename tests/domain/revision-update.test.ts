import { expect } from 'chai';
import { resource, type UpsertResource } from '../../domain/resource/decider.js';
import type { CreateRevision, UpdateRevision } from '../../domain/resource/commands.js';
import type { ResourceEvent } from '../../domain/resource/events.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(resource);
const at = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const valid = { schema_version: 'v1', errors: [], localizable: [] };
const invalid = { schema_version: 'v1', errors: [{ path: '/title', message: 'must be string' }], localizable: [] };
const ref = { env: 'e', folder: 'c1', resource: 'r1' };

const created: UpsertResource = {
  type: 'UpsertResource',
  data: {
    env: 'e', folder: 'c1', key: 'r1', external_id: 'x1', resource_owner: null, created_at: at, owner: { required: false, found: false },
    mode: 'instant', revision: 'rev1', data: { title: 'one' }, size: 10, validation: valid, validate_data: true, if_match: null, keep: null,
  },
};
const draft: CreateRevision = {
  type: 'CreateRevision',
  data: { ...ref, revision: 'rev2', data: { title: 'two' }, size: 10, validation: valid, validate_data: true, created_at: at, keep: null },
};
const history = (): ResourceEvent[] => {
  const first = resource.decide(created, resource.initialState());
  return [...first, ...resource.decide(draft, first.reduce(resource.evolve, resource.initialState()))];
};
const update = (revision: string, extra: Partial<UpdateRevision['data']> = {}): UpdateRevision => ({
  type: 'UpdateRevision',
  data: { ...ref, revision, data: { title: 'edited' }, size: 18, validation: valid, validate_data: true, updated_at: later, ...extra },
});

describe('resource decider: updating a draft revision', () => {
  it('replaces the payload of a draft with RevisionUpdated', () => {
    spec.given(history()).when(update('rev2')).then([
      { type: 'RevisionUpdated', data: { ...ref, key: 'rev2', data: { title: 'edited' }, size: 18, schema_version: 'v1', is_valid: true, updated_at: later } },
    ]);
  });

  it('folds the new size and validity into the revision summary', () => {
    const events = [...history(), ...resource.decide(update('rev2', { size: 99, validation: invalid, validate_data: false }), history().reduce(resource.evolve, resource.initialState()))];
    const state = events.reduce(resource.evolve, resource.initialState());
    expect(state.status === 'active' && state.live.find((r) => r.key === 'rev2')).to.include({ size: 99, is_valid: false });
  });

  it('refuses a published revision, an unknown one, invalid data and an oversize payload', () => {
    spec.given(history()).when(update('rev1')).thenThrows('validation_error', { revision: ['is published'] });
    spec.given(history()).when(update('nope')).thenThrows('revision_not_found');
    spec.given(history()).when(update('rev2', { validation: invalid })).thenThrows('validation_error');
    spec.given(history()).when(update('rev2', { size: 2 * 1024 * 1024 })).thenThrows('json_size_exceeded');
    spec.given([]).when(update('rev2')).thenThrows('resource_not_found');
  });
});
