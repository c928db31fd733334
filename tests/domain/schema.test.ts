import { expect } from 'chai';
import { schema, type SchemaCommand } from '../../domain/schema/decider.js';
import type { SchemaEvent, SchemaVersionCreated } from '../../domain/schema/events.js';
import type { FieldDef } from '../../domain/schema/fields.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(schema);
const owner = { env: 'e', schema_key: 'c1', schema_type: 'collection' } as const;
const at = '2026-01-01T00:00:00.000Z';

const field = (key: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  key, name: key, description: '', path: key, parent: null, type: 'string', meta: {},
  required: false, nullable: false, multiple: false, localizable: false, searchable: false, private: false, vectorizable: false, ...extra,
});

const versionCreated = (key: string, fields: FieldDef[] = []): SchemaVersionCreated => ({
  type: 'SchemaVersionCreated', data: { ...owner, key, name: key, description: '', created_at: at, fields },
});
const fieldCreated = (version: string, f: FieldDef): SchemaEvent => ({ type: 'SchemaFieldCreated', data: { ...owner, version, field: f } });
const publish = (version: string): SchemaCommand => ({ type: 'PublishVersion', data: { ...owner, version, published_at: at, locales: ['en'] } });
const published = (version: string, number: number, archived: string | null = null): SchemaEvent => {
  const [event] = deciderSpec(schema).given([versionCreated(version, [field('title')])]).when(publish(version)).thenReturns();
  return { ...(event as SchemaEvent & { type: 'SchemaVersionPublished' }), data: { ...(event as { data: object }).data, version_number: number, archived } } as SchemaEvent;
};

describe('schema decider (version state machine)', () => {
  it('creates a draft version', () => {
    spec.given([]).when({ type: 'CreateVersion', data: { ...owner, key: 'v1', name: 'v1', description: '', created_at: at, copy_from: null } }).then([versionCreated('v1')]);
  });

  it('copies the fields of copy_from into a new draft', () => {
    spec
      .given([versionCreated('v1'), fieldCreated('v1', field('title'))])
      .when({ type: 'CreateVersion', data: { ...owner, key: 'v2', name: 'v2', description: '', created_at: at, copy_from: 'v1' } })
      .then([versionCreated('v2', [field('title')])]);
  });

  it('refuses an unknown copy_from with source_version_not_found', () => {
    spec.given([]).when({ type: 'CreateVersion', data: { ...owner, key: 'v2', name: '', description: '', created_at: at, copy_from: 'nope' } }).thenThrows('source_version_not_found');
  });

  it('adds a field to a draft', () => {
    spec.given([versionCreated('v1')]).when({ type: 'CreateField', data: { ...owner, version: 'v1', field: field('title') } }).then([fieldCreated('v1', field('title'))]);
  });

  it('refuses a duplicate field key and an unknown version', () => {
    spec.given([versionCreated('v1', [field('title')])]).when({ type: 'CreateField', data: { ...owner, version: 'v1', field: field('title') } }).thenThrows('validation_error');
    spec.given([]).when({ type: 'CreateField', data: { ...owner, version: 'v9', field: field('title') } }).thenThrows('version_not_found');
  });

  it('refuses a field on a published version with cannot_update_published_model', () => {
    spec.given([versionCreated('v1', [field('title')]), published('v1', 1)]).when({ type: 'CreateField', data: { ...owner, version: 'v1', field: field('body') } }).thenThrows('cannot_update_published_model');
  });

  it('publishes a draft with number 1 and a generated JSON schema', () => {
    const [event] = spec.given([versionCreated('v1', [field('title', { required: true })])]).when(publish('v1')).thenReturns();
    expect(event?.type).to.equal('SchemaVersionPublished');
    const data = (event as { data: Record<string, unknown> }).data;
    expect(data.version_number).to.equal(1);
    expect(data.archived).to.equal(null);
    expect(data.json_schema).to.deep.include({ type: 'object', required: ['title'], additionalProperties: false });
  });

  it('numbers the next publish 2 and archives the version published before', () => {
    const [event] = spec.given([versionCreated('v1', [field('title')]), published('v1', 1), versionCreated('v2', [field('title')])]).when(publish('v2')).thenReturns();
    expect((event as { data: Record<string, unknown> }).data).to.deep.include({ version_number: 2, archived: 'v1' });
  });

  it('refuses to publish an empty version with cannot_publish_empty_schema', () => {
    spec.given([versionCreated('v1')]).when(publish('v1')).thenThrows('cannot_publish_empty_schema');
  });

  it('refuses to publish twice with version_already_published', () => {
    spec.given([versionCreated('v1', [field('title')]), published('v1', 1)]).when(publish('v1')).thenThrows('version_already_published');
  });

  it('refuses to publish an archived version with cannot_publish_archived_version', () => {
    spec
      .given([versionCreated('v1', [field('title')]), published('v1', 1), versionCreated('v2', [field('title')]), published('v2', 2, 'v1')])
      .when(publish('v1'))
      .thenThrows('cannot_publish_archived_version');
  });
});
