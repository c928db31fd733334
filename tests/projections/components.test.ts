import { expect } from 'chai';
import type { StoredEvent } from '../../commands/ports.js';
import type { DomainEvent } from '../../domain/events.js';
import { componentsProjection } from '../../projections/components.js';

const stored = { metadata: { timestamp: '2026-01-01T00:00:00.000Z' } } as StoredEvent;
const snapshot = { name: 'A', description: '', content_type: 'document', is_component: true, current_version_key: null, nested_schemas: [] } as const;

describe('components read model', () => {
  it('follows publishes of component schemas only', () => {
    const publish = (schema_type: 'component' | 'collection'): DomainEvent => ({
      type: 'SchemaVersionPublished',
      data: { env: 'e', schema_key: 'k', schema_type, version: 'v2', version_number: 2, published_at: '', json_schema: {}, archived: 'v1' },
    });
    const [change] = componentsProjection.changes(publish('component'), stored);
    expect(change?.collection).to.equal('components');
    expect(change?.apply({ _id: 'k', key: 'k', current_version: 'v1' })).to.deep.equal({ _id: 'k', key: 'k', current_version: 'v2' });
    expect(componentsProjection.changes(publish('collection'), stored)).to.deep.equal([]);
  });

  it('removes a deleted component with its versions and fields', () => {
    const deleted: DomainEvent = { type: 'ComponentDeleted', data: { env: 'e', key: 'k', snapshot } };
    const [change] = componentsProjection.changes(deleted, stored);
    expect(change?.apply({ _id: 'k' })).to.equal(null);
    expect(componentsProjection.removals?.(deleted)).to.deep.equal([
      { collection: 'schema_versions', where: { schema_key: 'k' } },
      { collection: 'schema_fields', where: { schema_key: 'k' } },
    ]);
  });
});
