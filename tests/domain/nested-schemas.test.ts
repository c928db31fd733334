import { expect } from 'chai';
import type { FieldDef } from '../../domain/schema/fields.js';
import { nestedSchemas } from '../../domain/schema/nested-schemas.js';

const field = (key: string, meta: Record<string, unknown>): FieldDef => ({
  key, name: key, description: '', path: key, parent: null, type: 'string', meta: meta as FieldDef['meta'],
  required: false, nullable: false, multiple: false, localizable: false, searchable: false, private: false, vectorizable: false,
});

describe('nested schemas of a version (component delete snapshot)', () => {
  it('names each component a field nests once, in field order, and ignores other fields', () => {
    const fields = [
      field('home', { component: 'address', component_version: 'v1' }),
      field('title', { maxLength: 10 }),
      field('geo', { component: 'point', component_version: 'v2' }),
      field('work', { component: 'address', component_version: 'v3' }),
    ];
    expect(nestedSchemas(fields)).to.deep.equal(['address', 'point']);
    expect(nestedSchemas([])).to.deep.equal([]);
  });
});
