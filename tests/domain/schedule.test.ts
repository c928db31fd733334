import { expect } from 'chai';
import { resource, type UpsertResource } from '../../domain/resource/decider.js';
import type { CancelSchedule, PublishScheduled, SchedulePublish } from '../../domain/resource/commands.js';
import type { ResourceEvent } from '../../domain/resource/events.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(resource);
const at = '2026-01-01T00:00:00.000Z';
const due = '2026-01-02T00:00:00.000Z';
const valid = { schema_version: 'v1', errors: [], localizable: [] };
const invalid = { schema_version: 'v1', errors: [{ path: '/title', message: 'required' }], localizable: [] };
const ref = { env: 'e', folder: 'c1', resource: 'r1' };

const upsert = (revision: string, extra: Partial<UpsertResource['data']> = {}): UpsertResource => ({
  type: 'UpsertResource',
  data: {
    env: 'e', folder: 'c1', key: 'r1', external_id: 'x1', resource_owner: null, created_at: at, owner: { required: false, found: false },
    mode: 'draft', revision, data: { title: revision }, size: 10, validation: valid, validate_data: true, if_match: null, keep: null, ...extra,
  },
});
const drafted: ResourceEvent[] = [...resource.decide(upsert('rev1'), resource.initialState())];
const schedule = (extra: Partial<SchedulePublish['data']> = {}): SchedulePublish => ({
  type: 'SchedulePublish',
  data: { ...ref, revision: 'rev1', publish_at: due, now: at, validation: valid, ...extra },
});
const scheduled: ResourceEvent = { type: 'RevisionScheduled', data: { env: 'e', folder: 'c1', resource: 'r1', key: 'rev1', publish_at: due } };
const fire = (extra: Partial<PublishScheduled['data']> = {}): PublishScheduled => ({
  type: 'PublishScheduled',
  data: { ...ref, revision: 'rev1', publish_at: due, published_at: due, data: { title: 'rev1' }, validation: valid, ...extra },
});
const cancel: CancelSchedule = { type: 'CancelSchedule', data: { ...ref, revision: 'rev1' } };

describe('resource decider: scheduled publishing', () => {
  it('given a draft, when scheduled for later, then RevisionScheduled', () => {
    spec.given(drafted).when(schedule()).then([scheduled]);
  });

  it('refuses a time that is not after now, an unknown revision, the current revision and invalid data', () => {
    spec.given(drafted).when(schedule({ publish_at: at })).thenThrows('validation_error', { publish_at: ['must be in the future'] });
    spec.given(drafted).when(schedule({ revision: 'nope' })).thenThrows('revision_not_found');
    spec.given(drafted).when(schedule({ validation: invalid })).thenThrows('validation_error');
    const published = [...resource.decide(upsert('rev1', { mode: 'instant' }), resource.initialState())];
    spec.given(published).when(schedule()).thenThrows('validation_error', { revision: ['is the current revision'] });
  });

  it('given a schedule, when it fires, then the revision is published; a second fire appends nothing', () => {
    const events = spec.given([...drafted, scheduled]).when(fire()).thenReturns();
    expect(events.map((e) => e.type)).to.deep.equal(['RevisionPublished']);
    spec.given([...drafted, scheduled, ...events]).when(fire()).then([]);
  });

  it('fires nothing for a cancelled or moved schedule, and cancels with a reason when the data no longer passes', () => {
    spec.given([...drafted, scheduled, { type: 'RevisionScheduleCancelled', data: { ...ref, key: 'rev1', reason: null } }]).when(fire()).then([]);
    spec.given([...drafted, { ...scheduled, data: { ...scheduled.data, publish_at: '2026-02-01T00:00:00.000Z' } }]).when(fire()).then([]);
    const refused = spec.given([...drafted, scheduled]).when(fire({ validation: invalid })).thenReturns();
    expect(refused.map((e) => e.type)).to.deep.equal(['RevisionScheduleCancelled']);
    spec.given([]).when(fire()).then([]);
  });

  it('cancels a schedule, and refuses to cancel what is not scheduled (404 schedule_not_found)', () => {
    spec.given([...drafted, scheduled]).when(cancel).then([{ type: 'RevisionScheduleCancelled', data: { ...ref, key: 'rev1', reason: null } }]);
    spec.given(drafted).when(cancel).thenThrows('schedule_not_found');
  });

  it('an upsert with publish_at and mode=draft creates and schedules in one decision; with mode=instant it is refused', () => {
    const events = spec.given([]).when(upsert('rev1', { publish_at: due })).thenReturns();
    expect(events.map((e) => e.type)).to.deep.equal(['ResourceCreated', 'RevisionCreated', 'RevisionScheduled']);
    spec.given([]).when(upsert('rev1', { publish_at: due, mode: 'instant' })).thenThrows('validation_error', { publish_at: ['requires mode=draft'] });
    spec.given([]).when(upsert('rev1', { publish_at: at })).thenThrows('validation_error', { publish_at: ['must be in the future'] });
  });
});
