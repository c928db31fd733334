import { expect } from 'chai';
import { resource, type UpsertResource } from '../../domain/resource/decider.js';
import type { CreateRevision, DeleteRevision, PublishRevision } from '../../domain/resource/commands.js';
import type { ResourceEvent } from '../../domain/resource/events.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(resource);
const at = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const valid = { schema_version: 'v1', errors: [], localizable: [] };
const ref = { env: 'e', folder: 'c1', resource: 'r1' };

const upsert = (revision: string, extra: Partial<UpsertResource['data']> = {}): UpsertResource => ({
  type: 'UpsertResource',
  data: {
    env: 'e', folder: 'c1', key: 'r1', external_id: 'x1', resource_owner: null, created_at: at, owner: { required: false, found: false },
    mode: 'instant', revision, data: { title: revision }, size: 10, validation: valid, validate_data: true, if_match: null, keep: null, ...extra,
  },
});
const history = (count: number): ResourceEvent[] => {
  let events: ResourceEvent[] = [...resource.decide(upsert('rev1'), resource.initialState())];
  for (let i = 2; i <= count; i++) events = [...events, ...resource.decide(upsert(`rev${i}`), events.reduce(resource.evolve, resource.initialState()))];
  return events;
};
const createRevision = (revision: string, extra: Partial<CreateRevision['data']> = {}): CreateRevision => ({
  type: 'CreateRevision',
  data: { ...ref, revision, data: { title: revision }, size: 10, validation: valid, validate_data: true, created_at: later, keep: null, ...extra },
});
const publish = (revision: string, extra: Partial<PublishRevision['data']> = {}): PublishRevision => ({
  type: 'PublishRevision',
  data: { ...ref, revision, published_at: later, data: { title: revision }, validation: valid, ...extra },
});
const remove = (revision: string): DeleteRevision => ({ type: 'DeleteRevision', data: { ...ref, revision } });

describe('resource decider: upsert and revisions', () => {
  it('creates on a new stream and publishes revision 1', () => {
    const events = spec.given([]).when(upsert('rev1')).thenReturns();
    expect(events.map((e) => e.type)).to.deep.equal(['ResourceCreated', 'RevisionCreated']);
    expect(events[1]?.data).to.include({ number: 1, status: 'published' });
  });

  it('adds revision N+1, unpublishes the previous current one and publishes the new one', () => {
    spec.given(history(1)).when(upsert('rev2')).then([
      { type: 'RevisionCreated', data: { ...ref, key: 'rev2', number: 2, data: { title: 'rev2' }, size: 10, schema_version: 'v1', status: 'draft', is_valid: true, created_at: at, published_at: null } },
      { type: 'RevisionUnpublished', data: { ...ref, key: 'rev1', unpublished_at: at } },
      { type: 'RevisionPublished', data: { ...ref, key: 'rev2', published_at: at, data: { title: 'rev2' } } },
    ]);
  });

  it('changes the name only when sent, and not to the same value', () => {
    expect(spec.given(history(1)).when(upsert('rev2', { name: 'New' })).thenReturns().map((e) => e.type)).to.include('ResourceUpdated');
    expect(spec.given(history(1)).when(upsert('rev2')).thenReturns().map((e) => e.type)).to.not.include('ResourceUpdated');
  });

  it('refuses an If-Match that is not the current revision with 412, naming the current one', () => {
    spec.given(history(2)).when(upsert('rev3', { if_match: 'rev1' })).thenThrows('revision_precondition_failed', { current_revision: 'rev2' });
    spec.given([]).when(upsert('rev1', { if_match: 'rev0' })).thenThrows('revision_precondition_failed', { current_revision: null });
    expect(spec.given(history(2)).when(upsert('rev3', { if_match: 'rev2' })).thenReturns()).to.have.length(3);
  });

  it('refuses a schema failure on upsert with data_validation_error and localizable non-objects first', () => {
    spec.given(history(1)).when(upsert('rev2', { validation: { ...valid, errors: [{ path: '/t', message: 'x' }] } })).thenThrows('data_validation_error');
    spec.given(history(1)).when(upsert('rev2', { validation: { ...valid, localizable: ['/title'] } })).thenThrows('localizable_data_should_be_object', { fields: ['/title'] });
    spec.given([]).when(upsert('rev1', { validation: { ...valid, localizable: ['/title'] } })).thenThrows('localizable_data_should_be_object');
  });

  it('trims the oldest revisions beyond keep, never the current one', () => {
    const drafts: ResourceEvent[] = [...history(1)];
    for (let i = 2; i <= 3; i++) drafts.push(...resource.decide(createRevision(`rev${i}`), drafts.reduce(resource.evolve, resource.initialState())));
    const events = spec.given(drafts).when(createRevision('rev4', { keep: 3 })).thenReturns();
    expect(events.map((e) => [e.type, e.data.key])).to.deep.equal([['RevisionCreated', 'rev4'], ['RevisionDeleted', 'rev2']]);
    expect(events[1]?.data).to.deep.include({ snapshot: { number: 2, size: 10, status: 'draft', is_valid: true, version_key: 'v1' } });
  });

  it('publishes a revision after checking it against the current schema; the current one again is a no-op', () => {
    const drafts = [...history(1), ...resource.decide(createRevision('rev2'), history(1).reduce(resource.evolve, resource.initialState()))];
    expect(spec.given(drafts).when(publish('rev2')).thenReturns().map((e) => e.type)).to.deep.equal(['RevisionUnpublished', 'RevisionPublished']);
    spec.given(drafts).when(publish('rev1')).then([]);
    spec.given(drafts).when(publish('rev2', { validation: { ...valid, errors: [{ path: '/t', message: 'x' }] } })).thenThrows('validation_error');
    spec.given(drafts).when(publish('rev2', { validation: { schema_version: null, errors: null, localizable: [] } })).thenThrows('validation_error');
    spec.given(drafts).when(publish('nope')).thenThrows('revision_not_found');
  });

  it('creates and publishes a revision in one decision with publish (a delivery update), refusing invalid data or no schema', () => {
    spec.given(history(1)).when(createRevision('rev2', { publish: true })).then([
      { type: 'RevisionCreated', data: { ...ref, key: 'rev2', number: 2, data: { title: 'rev2' }, size: 10, schema_version: 'v1', status: 'draft', is_valid: true, created_at: later, published_at: null } },
      { type: 'RevisionUnpublished', data: { ...ref, key: 'rev1', unpublished_at: later } },
      { type: 'RevisionPublished', data: { ...ref, key: 'rev2', published_at: later, data: { title: 'rev2' } } },
    ]);
    const invalid = { schema_version: 'v1', errors: [{ path: '/title', message: 'must be string' }], localizable: [] };
    spec.given(history(1)).when(createRevision('rev2', { publish: true, validate_data: false, validation: invalid })).thenThrows('validation_error');
    spec.given(history(1)).when(createRevision('rev2', { publish: true, validation: { schema_version: null, errors: null, localizable: [] } })).thenThrows('validation_error');
  });

  it('deletes a revision but never the current one', () => {
    const drafts = [...history(1), ...resource.decide(createRevision('rev2'), history(1).reduce(resource.evolve, resource.initialState()))];
    expect(spec.given(drafts).when(remove('rev2')).thenReturns()[0]?.type).to.equal('RevisionDeleted');
    spec.given(drafts).when(remove('rev1')).thenThrows('validation_error');
    spec.given(drafts).when(remove('nope')).thenThrows('revision_not_found');
  });

  it('deletes the resource with its snapshot and revisions; afterwards it is not found', () => {
    const events = history(2);
    const deleted = spec.given(events).when({ type: 'DeleteResource', data: { env: 'e', folder: 'c1', key: 'r1' } }).thenReturns();
    expect(deleted[0]?.data).to.deep.equal({
      env: 'e', folder: 'c1', key: 'r1', external_id: 'x1', revisions: ['rev1', 'rev2'],
      snapshot: { name: null, content_type: 'document', document_id: 'r1', resource_owner_key: null, current_revision_key: 'rev2' },
    });
    spec.given([...events, ...deleted]).when(upsert('rev3')).thenThrows('resource_not_found');
    spec.given([...events, ...deleted]).when(createRevision('rev3')).thenThrows('resource_not_found');
  });
});
