import { expect } from 'chai';
import { resource, type CreateResource } from '../../domain/resource/decider.js';
import { MAX_PAYLOAD_BYTES } from '../../domain/resource/events.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(resource);
const at = '2026-01-01T00:00:00.000Z';

const create = (extra: Partial<CreateResource['data']> = {}): CreateResource => ({
  type: 'CreateResource',
  data: {
    env: 'e', folder: 'c1', key: 'r1', name: null, external_id: null, resource_owner: null, created_at: at,
    mode: 'instant', revision: 'rev1', data: { title: 'Hi' }, size: 15, validate_data: true,
    validation: { schema_version: 'v1', errors: [], localizable: [] }, owner: { required: false, found: false }, ...extra,
  },
});

describe('resource decider', () => {
  it('creates and publishes revision 1 with mode=instant', () => {
    spec.given([]).when(create()).then([
      { type: 'ResourceCreated', data: { env: 'e', folder: 'c1', key: 'r1', name: null, external_id: null, resource_owner: null, created_at: at } },
      {
        type: 'RevisionCreated',
        data: {
          env: 'e', folder: 'c1', resource: 'r1', key: 'rev1', number: 1, data: { title: 'Hi' }, size: 15, schema_version: 'v1',
          status: 'published', is_valid: true, created_at: at, published_at: at,
        },
      },
    ]);
  });

  it('creates a draft revision with mode=draft, even without validation', () => {
    const events = spec.given([]).when(create({ mode: 'draft', validate_data: false, validation: { schema_version: 'v1', errors: null, localizable: [] } })).thenReturns();
    expect(events[1]?.data).to.deep.include({ status: 'draft', published_at: null, is_valid: null });
  });

  it('refuses data that fails the schema with validation_error and the errors', () => {
    const errors = [{ path: '/title', message: 'must be string' }];
    spec.given([]).when(create({ validation: { schema_version: 'v1', errors, localizable: [] } })).thenThrows('validation_error', { errors });
  });

  it('refuses mode=instant without a published schema', () => {
    spec.given([]).when(create({ validation: { schema_version: null, errors: null, localizable: [] } })).thenThrows('validation_error');
  });

  it('refuses validate_data=false with mode=instant', () => {
    spec.given([]).when(create({ validate_data: false })).thenThrows('validation_error');
  });

  it('refuses a payload over 1 MB with json_size_exceeded', () => {
    spec.given([]).when(create({ size: MAX_PAYLOAD_BYTES + 1 })).thenThrows('json_size_exceeded');
  });

  it('requires resource_owner in a strict-reference collection (resource_owner_required)', () => {
    spec.given([]).when(create({ owner: { required: true, found: false } })).thenThrows('resource_owner_required');
  });

  it('refuses an owner that is not a resource of the parent collection (resource_owner_not_found)', () => {
    spec.given([]).when(create({ resource_owner: 'nope', owner: { required: true, found: false } })).thenThrows('resource_owner_not_found');
  });

  it('keeps the owner of a strict-reference resource', () => {
    const events = spec.given([]).when(create({ resource_owner: 'p1', owner: { required: true, found: true } })).thenReturns();
    expect(events[0]?.data).to.deep.include({ resource_owner: 'p1' });
  });

  it('refuses resource_owner outside strict-reference collections', () => {
    spec.given([]).when(create({ resource_owner: 'p1' })).thenThrows('validation_error');
  });

  it('refuses to create a resource twice', () => {
    const events = spec.given([]).when(create()).thenReturns();
    spec.given(events).when(create()).thenThrows('validation_error');
  });
});
