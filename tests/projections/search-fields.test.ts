import { expect } from 'chai';
import type { DomainEvent } from '../../domain/events.js';
import { activeFields, searchFieldChanges } from '../../projections/search-fields.js';
import { fieldDef } from '../support/fields.js';

const owner = { env: 'e', schema_key: 'c1', schema_type: 'collection' as const };

/** Applies the meta changes of events to a plain map, as the delivery index does in a unit of work. */
function replay(events: readonly DomainEvent[]): Map<string, unknown> {
  const meta = new Map<string, unknown>();
  for (const event of events) {
    for (const change of searchFieldChanges(event)) {
      const next = change.apply(meta.get(change.id) ?? null);
      if (next === null) meta.delete(change.id);
      else meta.set(change.id, next);
    }
  }
  return meta;
}

describe('the delivery index copy of collection field flags', () => {
  const created = { type: 'SchemaVersionCreated', data: { ...owner, key: 'v1', name: '', description: '', created_at: 't', fields: [fieldDef('title', { searchable: true })] } } as DomainEvent;
  const added = { type: 'SchemaFieldCreated', data: { ...owner, version: 'v1', field: fieldDef('body', { type: 'text', vectorizable: true }) } } as DomainEvent;
  const published = { type: 'SchemaVersionPublished', data: { ...owner, version: 'v1', version_number: 1, published_at: 't', json_schema: { type: 'object' }, archived: null } } as DomainEvent;

  it('knows no fields before a version is published, and the published version fields after', async () => {
    const before = replay([created, added]);
    expect(await activeFields(async (id) => before.get(id) ?? null, 'e', 'c1')).to.deep.equal([]);
    const after = replay([created, added, published]);
    const fields = await activeFields(async (id) => after.get(id) ?? null, 'e', 'c1');
    expect(fields.map((f) => [f.path, f.searchable, f.vectorizable])).to.deep.equal([
      ['title', true, false],
      ['body', false, true],
    ]);
  });

  it('follows renames with their subtree, deletes, and ignores component schemas', async () => {
    const renamed = { type: 'SchemaFieldUpdated', data: { ...owner, version: 'v1', path: 'title', field: fieldDef('heading', { searchable: false }), moved: [] } } as DomainEvent;
    const deleted = { type: 'SchemaFieldDeleted', data: { ...owner, version: 'v1', path: 'body', removed: ['body'] } } as DomainEvent;
    const component = { type: 'SchemaFieldCreated', data: { ...owner, schema_type: 'component', version: 'v1', field: fieldDef('x') } } as DomainEvent;
    const meta = replay([created, added, renamed, deleted, component, published]);
    const fields = await activeFields(async (id) => meta.get(id) ?? null, 'e', 'c1');
    expect(fields.map((f) => [f.path, f.searchable])).to.deep.equal([['heading', false]]);
  });

  it('forgets a deleted version', () => {
    const gone = { type: 'SchemaVersionDeleted', data: { ...owner, key: 'v1', snapshot: { version_number: null, name: '', description: '' }, field_paths: [] } } as DomainEvent;
    expect([...replay([created, gone]).keys()]).to.deep.equal([]);
  });
});
