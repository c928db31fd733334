import { expect } from 'chai';
import type { StoredEvent } from '../../commands/ports.js';
import type { DomainEvent } from '../../domain/events.js';
import { schemaVersionsProjection } from '../../projections/schema-versions.js';

const stored = { metadata: { timestamp: '2026-01-01T00:00:00.000Z' } } as StoredEvent;
const owner = { env: 'e', schema_key: 'c1', schema_type: 'collection' } as const;

describe('schema versions read model', () => {
  it('projects a version created without fields (stored so before docs/decisions/0030) as a version with none, without throwing', () => {
    const legacy = { type: 'SchemaVersionCreated', data: { ...owner, key: 'v1', name: '', description: '', created_at: '2026-01-01T00:00:00.000Z' } } as unknown as DomainEvent;
    const changes = schemaVersionsProjection.changes(legacy, stored);
    expect(changes.map((c) => [c.collection, c.id])).to.deep.equal([['schema_versions', 'v1']]);
    expect(changes[0]?.apply(null)).to.deep.include({ _id: 'v1', key: 'v1', version_number: null, json_schema: null });
  });
});
