import { schema, type SchemaCommand } from '../../domain/schema/decider.js';
import type { SchemaEvent } from '../../domain/schema/events.js';
import type { FieldDef } from '../../domain/schema/fields.js';
import { generateJsonSchema } from '../../domain/schema/json-schema.js';
import type { PublishVersion } from '../../domain/schema/versions.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(schema);
const owner = { env: 'e', schema_key: 'c1', schema_type: 'collection' } as const;
const at = '2026-01-01T00:00:00.000Z';
const later = '2026-02-01T00:00:00.000Z';

const field = (key: string): FieldDef => ({
  key, name: '', description: '', path: key, parent: null, type: 'string', meta: {},
  required: true, nullable: false, multiple: false, localizable: false, searchable: false, private: false, vectorizable: false,
});
const title = field('title');

const created = (key: string, fields: FieldDef[] = [title], name = key, description = ''): SchemaEvent => ({
  type: 'SchemaVersionCreated', data: { ...owner, key, name, description, created_at: at, fields },
});
const create = (key: string, copy_from: string | null = null): SchemaCommand => ({
  type: 'CreateVersion', data: { ...owner, key, name: key, description: '', created_at: at, copy_from },
});
const update = (key: string, change: { name?: string; description?: string }): SchemaCommand => ({ type: 'UpdateVersion', data: { ...owner, key, ...change } });
const del = (key: string): SchemaCommand => ({ type: 'DeleteVersion', data: { ...owner, key } });
const publish = (version: string, facts: Partial<PublishVersion['data']> = {}): SchemaCommand => ({
  type: 'PublishVersion', data: { ...owner, version, published_at: later, locales: ['en'], ...facts },
});
const published = (version: string, version_number: number, archived: string | null, fields: FieldDef[] = [title]): SchemaEvent => ({
  type: 'SchemaVersionPublished',
  data: { ...owner, version, version_number, published_at: later, json_schema: generateJsonSchema(fields, { requiredLocales: ['en'] }), archived },
});
const deleted = (key: string, version_number: number | null, fields: FieldDef[] = [title], name = key, description = ''): SchemaEvent => ({
  type: 'SchemaVersionDeleted', data: { ...owner, key, snapshot: { version_number, name, description }, field_paths: fields.map((f) => f.path) },
});

/** v1 published then archived by v2, v2 published, v3 a draft. */
const history: SchemaEvent[] = [created('v1'), published('v1', 1, null), created('v2'), published('v2', 2, 'v1'), created('v3')];

describe('schema version state machine (decider)', () => {
  describe('create', () => {
    it('creates a draft', () => {
      spec.given([]).when(create('v1')).then([created('v1', [], 'v1')]);
    });

    it('copies the fields of a draft, a published or an archived version of the same schema (copy_from)', () => {
      for (const source of ['v1', 'v2', 'v3']) spec.given(history).when(create('v4', source)).then([created('v4', [title], 'v4')]);
    });

    it('refuses an unknown or deleted copy_from with source_version_not_found', () => {
      spec.given(history).when(create('v4', 'nope')).thenThrows('source_version_not_found');
      spec.given([...history, deleted('v3', null)]).when(create('v4', 'v3')).thenThrows('source_version_not_found');
    });

    it('refuses a key that exists already', () => {
      spec.given(history).when(create('v2')).thenThrows('validation_error');
    });

    it('refuses the 1,001st version with too_many_versions, and accepts it again after a delete', () => {
      const thousand = Array.from({ length: 1000 }, (_, i) => created(`v${i}`));
      spec.given(thousand).when(create('one-more')).thenThrows('too_many_versions', { limit: 1000 });
      spec.given(thousand.slice(0, 999)).when(create('v999')).then([created('v999', [], 'v999')]);
      spec.given([...thousand, deleted('v0', null)]).when(create('one-more')).then([created('one-more', [], 'one-more')]);
    });
  });

  describe('update', () => {
    it('changes the name and description of a draft; a field left out keeps its value', () => {
      spec.given([created('v1', [title], 'old', 'about')]).when(update('v1', { name: 'new' })).then([
        { type: 'SchemaVersionUpdated', data: { ...owner, key: 'v1', name: 'new', description: 'about' } },
      ]);
      spec.given([created('v1', [title], 'old', 'about')]).when(update('v1', { description: '' })).then([
        { type: 'SchemaVersionUpdated', data: { ...owner, key: 'v1', name: 'old', description: '' } },
      ]);
    });

    it('writes nothing for an update that changes nothing', () => {
      spec.given([created('v1', [title], 'same')]).when(update('v1', { name: 'same' })).then([]);
    });

    it('keeps the new name for the next decisions (evolve)', () => {
      const renamed: SchemaEvent = { type: 'SchemaVersionUpdated', data: { ...owner, key: 'v3', name: 'renamed', description: 'd' } };
      spec.given([...history, renamed]).when(del('v3')).then([deleted('v3', null, [title], 'renamed', 'd')]);
    });

    it('refuses the published version and an archived one with cannot_update_published_model', () => {
      spec.given(history).when(update('v2', { name: 'x' })).thenThrows('cannot_update_published_model');
      spec.given(history).when(update('v1', { name: 'x' })).thenThrows('cannot_update_published_model');
    });

    it('refuses an unknown version with version_not_found', () => {
      spec.given(history).when(update('nope', { name: 'x' })).thenThrows('version_not_found');
    });
  });

  describe('delete', () => {
    it('removes a draft with its snapshot and field paths', () => {
      spec.given(history).when(del('v3')).then([deleted('v3', null)]);
    });

    it('removes an archived version (its snapshot keeps its number)', () => {
      spec.given(history).when(del('v1')).then([deleted('v1', 1)]);
    });

    it('refuses the published version with cannot_delete_published_schema', () => {
      spec.given(history).when(del('v2')).thenThrows('cannot_delete_published_schema');
    });

    it('refuses an unknown or already deleted version with version_not_found', () => {
      spec.given(history).when(del('nope')).thenThrows('version_not_found');
      spec.given([...history, deleted('v3', null)]).when(del('v3')).thenThrows('version_not_found');
      spec.given([...history, deleted('v3', null)]).when(publish('v3')).thenThrows('version_not_found');
    });
  });

  describe('publish', () => {
    it('publishes the first draft as number 1 with its generated JSON schema', () => {
      spec.given([created('v1')]).when(publish('v1')).then([published('v1', 1, null)]);
    });

    it('archives the version published before and numbers on', () => {
      spec.given(history).when(publish('v3')).then([published('v3', 3, 'v2')]);
    });

    it('keeps numbering after a numbered version was deleted', () => {
      spec.given([...history, deleted('v1', 1)]).when(publish('v3')).then([published('v3', 3, 'v2')]);
    });

    it('refuses the published version with version_already_published', () => {
      spec.given(history).when(publish('v2')).thenThrows('version_already_published');
    });

    it('refuses an archived version with cannot_publish_archived_version', () => {
      spec.given(history).when(publish('v1')).thenThrows('cannot_publish_archived_version');
    });

    it('refuses a draft without fields with cannot_publish_empty_schema', () => {
      spec.given([created('v1', [])]).when(publish('v1')).thenThrows('cannot_publish_empty_schema');
    });

    it('refuses an unknown version with version_not_found', () => {
      spec.given(history).when(publish('nope')).thenThrows('version_not_found');
    });

    it('refuses with valid_drafts_exist when check_valid_drafts is set and compatible drafts exist', () => {
      spec.given(history).when(publish('v3', { check_valid_drafts: true, compatible_drafts: 2 })).thenThrows('valid_drafts_exist', { compatible_drafts: 2 });
    });

    it('publishes when no compatible draft exists, or when check_valid_drafts is not set', () => {
      spec.given(history).when(publish('v3', { check_valid_drafts: true, compatible_drafts: 0 })).then([published('v3', 3, 'v2')]);
      spec.given(history).when(publish('v3', { check_valid_drafts: false, compatible_drafts: 5 })).then([published('v3', 3, 'v2')]);
    });
  });

  describe('auto_remove_schema_versions (keep_archived)', () => {
    /** v1..v3 published in turn (v1, v2 archived), v4 a draft, d a draft that is never published. */
    const three: SchemaEvent[] = [
      created('v1'), published('v1', 1, null), created('d'), created('v2'), published('v2', 2, 'v1'),
      created('v3'), published('v3', 3, 'v2'), created('v4'),
    ];

    it('deletes the oldest archived versions beyond N, after the publish that archives one more', () => {
      spec.given(three).when(publish('v4', { keep_archived: 2 })).then([published('v4', 4, 'v3'), deleted('v1', 1)]);
      spec.given(three).when(publish('v4', { keep_archived: 1 })).then([published('v4', 4, 'v3'), deleted('v1', 1), deleted('v2', 2)]);
    });

    it('deletes nothing while N archived versions or fewer remain, nor when the setting is null', () => {
      spec.given(three).when(publish('v4', { keep_archived: 3 })).then([published('v4', 4, 'v3')]);
      spec.given(three).when(publish('v4', { keep_archived: null })).then([published('v4', 4, 'v3')]);
      spec.given(three).when(publish('v4')).then([published('v4', 4, 'v3')]);
    });

    it('never removes drafts, and the removed versions are gone for the next decisions', () => {
      const after = [...three, published('v4', 4, 'v3'), deleted('v1', 1)];
      spec.given(after).when(del('v1')).thenThrows('version_not_found');
      spec.given(after).when(del('d')).then([deleted('d', null)]);
      spec.given(after).when(create('v5', 'v1')).thenThrows('source_version_not_found');
    });

    it('ignores the setting when the publish is refused', () => {
      spec.given(three).when(publish('v3', { keep_archived: 1 })).thenThrows('version_already_published');
    });
  });
});
