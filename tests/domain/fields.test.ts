import { expect } from 'chai';
import { schema, type SchemaCommand } from '../../domain/schema/decider.js';
import type { SchemaEvent, SchemaVersionCreated } from '../../domain/schema/events.js';
import type { FieldChanges } from '../../domain/schema/field-commands.js';
import { checkField } from '../../domain/schema/field-rules.js';
import type { FieldDef, NestedPin } from '../../domain/schema/fields.js';
import { generateJsonSchema } from '../../domain/schema/json-schema.js';
import { DomainError } from '../../domain/errors.js';
import { deciderSpec } from '../support/decider-spec.js';
import { fieldDef as f } from '../support/fields.js';

const spec = deciderSpec(schema);
const owner = { env: 'e', schema_key: 'c1', schema_type: 'collection' } as const;
const at = '2026-01-01T00:00:00.000Z';

const draft = (fields: FieldDef[] = [], key = 'v1'): SchemaVersionCreated => ({
  type: 'SchemaVersionCreated',
  data: { ...owner, key, name: key, description: '', created_at: at, fields },
});
const create = (field: FieldDef, version = 'v1'): SchemaCommand => ({ type: 'CreateField', data: { ...owner, version, field } });
const update = (path: string, changes: FieldChanges, pin: NestedPin | null = null): SchemaCommand => ({
  type: 'UpdateField',
  data: { ...owner, version: 'v1', path, changes, pin },
});
const del = (path: string, version = 'v1'): SchemaCommand => ({ type: 'DeleteField', data: { ...owner, version, path } });
const publish = (version = 'v1'): SchemaCommand => ({ type: 'PublishVersion', data: { ...owner, version, published_at: at, locales: ['en'] } });
const publishedV1 = (): SchemaEvent => spec.given([draft([f('title')])]).when(publish()).thenReturns()[0] as SchemaEvent;

const pin = (fields: number, depth = 0): NestedPin => ({ json_schema: generateJsonSchema([f('city')], { requiredLocales: ['en'] }), fields, depth });
const nested = (key: string, p: NestedPin, extra: Partial<FieldDef> = {}) => f(key, { type: 'nested', meta: { component: 'comp', component_version: 'cv1' }, pin: p, ...extra });
const many = (count: number): FieldDef[] => Array.from({ length: count }, (_, i) => f(`f${i}`));

/** The detail of the validation_error checkField throws, or null when the field is fine. */
function refusal(field: FieldDef, ancestors: FieldDef[] = []): Record<string, unknown> | null {
  try {
    checkField(field, ancestors);
    return null;
  } catch (error) {
    expect(error).to.be.instanceOf(DomainError);
    expect((error as DomainError).code).to.equal('validation_error');
    return (error as DomainError).detail;
  }
}

describe('field rules (one definition in its place)', () => {
  it('accepts a field of every type with the options that apply to it', () => {
    const fine: FieldDef[] = [
      f('s', { meta: { enum: ['a', 'b'], minLength: 1, maxLength: 10, pattern: '^[a-z]+$' }, vectorizable: true, searchable: true, localizable: true, multiple: true }),
      f('t', { type: 'text', meta: { maxLength: 10000 }, vectorizable: true }),
      f('i', { type: 'integer', meta: { minimum: 0, maximum: 5, enum: [1, 2] } }),
      f('n', { type: 'number', meta: { minimum: 0.5 } }),
      f('b', { type: 'boolean', required: true, nullable: true, private: true }),
      f('d', { type: 'date' }),
      f('tm', { type: 'time' }),
      f('dt', { type: 'datetime' }),
      f('j', { type: 'json', nullable: true }),
      f('r', { type: 'reference', meta: { collections: ['a', 'b'] } }),
      f('rel', { type: 'relation' }),
      f('o', { type: 'object', multiple: true }),
      f('a', { type: 'array', meta: { items: 'integer', minimum: 1 } }),
      f('ao', { type: 'array', meta: { items: 'object', match: 'one' } }),
      f('ne', { type: 'nested', meta: { component: 'c', component_version: 'v', auto_update: true } }),
      f('v', { type: 'vector', meta: { dimensions: 1536 } }),
    ];
    for (const field of fine) expect(refusal(field), field.key).to.equal(null);
  });

  it('refuses meta keys that do not apply to the type, naming them', () => {
    expect(refusal(f('s', { meta: { minimum: 1 } }))).to.deep.equal({ 'meta.minimum': ['does not apply to a string field'] });
    expect(refusal(f('b', { type: 'boolean', meta: { enum: ['x'] } }))).to.have.property('meta.enum');
    expect(refusal(f('t', { type: 'text', meta: { dimensions: 256 } }))).to.have.property('meta.dimensions');
    expect(refusal(f('a', { type: 'array', meta: { items: 'string', minimum: 1 } }))).to.have.property('meta.minimum');
    expect(refusal(f('r', { type: 'integer', meta: { collections: ['a'] } }))).to.have.property('meta.collections');
  });

  it('requires the options of arrays, nested fields and vectors', () => {
    expect(refusal(f('a', { type: 'array' }))).to.deep.equal({ 'meta.items': ['is required for an array field'] });
    expect(refusal(f('a', { type: 'array', meta: { items: 'string', match: 'any' } }))).to.have.property('meta.match');
    expect(refusal(f('n', { type: 'nested', meta: { component: 'c' } }))).to.have.property('meta.component_version');
    expect(refusal(f('n', { type: 'nested', meta: { component_version: 'v' } }))).to.have.property('meta.component');
    expect(refusal(f('v', { type: 'vector' }))).to.have.property('meta.dimensions');
    expect(refusal(f('v', { type: 'vector', meta: { dimensions: 512 } }))).to.deep.equal({ 'meta.dimensions': ['must be one of 256, 384, 768, 1024, 1536'] });
  });

  it('refuses bad validations: patterns, ranges, lengths, enums', () => {
    expect(refusal(f('s', { meta: { pattern: '([a-z' } }))).to.have.property('meta.pattern');
    expect(refusal(f('i', { type: 'integer', meta: { minimum: 5, maximum: 1 } }))).to.have.property('meta.minimum');
    expect(refusal(f('i', { type: 'integer', meta: { minimum: 1.5 } }))).to.have.property('meta.minimum');
    expect(refusal(f('s', { meta: { minLength: 5, maxLength: 1 } }))).to.have.property('meta.minLength');
    expect(refusal(f('s', { meta: { maxLength: 256 } }))).to.have.property('meta.maxLength');
    expect(refusal(f('s', { meta: { enum: [1] } }))).to.have.property('meta.enum');
    expect(refusal(f('s', { meta: { enum: ['a', 'a'] } }))).to.have.property('meta.enum');
    expect(refusal(f('i', { type: 'integer', meta: { enum: [1.5] } }))).to.have.property('meta.enum');
    expect(refusal(f('n', { type: 'number', meta: { enum: [10], maximum: 5 } }))).to.have.property('meta.enum');
    expect(refusal(f('r', { type: 'relation', meta: { collections: ['a', 'a'] } }))).to.have.property('meta.collections');
  });

  it('refuses flags on types they do not apply to', () => {
    expect(refusal(f('i', { type: 'integer', vectorizable: true }))).to.deep.equal({ vectorizable: ['applies to string and text fields only'] });
    expect(refusal(f('r', { type: 'relation', multiple: true }))).to.have.property('multiple');
    expect(refusal(f('a', { type: 'array', meta: { items: 'string' }, multiple: true }))).to.have.property('multiple');
    expect(refusal(f('v', { type: 'vector', meta: { dimensions: 256 }, localizable: true }))).to.have.property('localizable');
    expect(refusal(f('j', { type: 'json', searchable: true }))).to.have.property('searchable');
    expect(refusal(f('a', { type: 'array', meta: { items: 'object' }, searchable: true }))).to.have.property('searchable');
  });

  it('refuses children under a non-container, required children of a match array, and localizable inside localizable', () => {
    expect(refusal(f('x', { parent: 's' }), [f('s')])).to.have.property('parent');
    expect(refusal(f('x', { parent: 'a' }), [f('a', { type: 'array', meta: { items: 'string' } })])).to.have.property('parent');
    expect(refusal(f('x', { parent: 'a' }), [f('a', { type: 'array', meta: { items: 'object' } })])).to.equal(null);
    expect(refusal(f('x', { parent: 'a', required: true }), [f('a', { type: 'array', meta: { items: 'object', match: 'all' } })])).to.have.property('required');
    expect(refusal(f('x', { parent: 'o.p', localizable: true }), [f('o', { type: 'object', localizable: true }), f('p', { parent: 'o', type: 'object' })])).to.have.property('localizable');
  });
});

describe('schema decider (fields of a draft)', () => {
  describe('create', () => {
    it('adds a child under an object and under an object array', () => {
      spec.given([draft([f('o', { type: 'object' })])]).when(create(f('x', { parent: 'o' }))).then([{ type: 'SchemaFieldCreated', data: { ...owner, version: 'v1', field: f('x', { parent: 'o' }) } }]);
      const arr = f('a', { type: 'array', meta: { items: 'object', match: 'any' } });
      spec.given([draft([arr])]).when(create(f('x', { parent: 'a' }))).thenReturns();
    });

    it('refuses an unknown parent, a duplicate key in the same parent, and a rule violation', () => {
      spec.given([draft()]).when(create(f('x', { parent: 'nope' }))).thenThrows('validation_error', { parent: ['no field at this path'] });
      spec.given([draft([f('o', { type: 'object' }), f('x', { parent: 'o' })])]).when(create(f('x', { parent: 'o' }))).thenThrows('validation_error', { key: ['must be unique within its parent'] });
      spec.given([draft([f('s')])]).when(create(f('x', { parent: 's' }))).thenThrows('validation_error');
    });

    it('accepts the same key under another parent', () => {
      spec.given([draft([f('x'), f('o', { type: 'object' })])]).when(create(f('x', { parent: 'o' }))).thenReturns();
    });

    it('refuses a nested field without the facts of its pinned version', () => {
      spec.given([draft()]).when(create(f('n', { type: 'nested', meta: { component: 'c', component_version: 'v' } }))).thenThrows('validation_error', {
        'meta.component_version': ['must be a published version of the component'],
      });
    });

    it('refuses unknown versions (version_not_found) and published or archived ones (cannot_update_published_model)', () => {
      spec.given([]).when(create(f('x'))).thenThrows('version_not_found');
      spec.given([draft([f('title')]), publishedV1()]).when(create(f('x'))).thenThrows('cannot_update_published_model');
    });
  });

  describe('too_many_fields (1,000 per version, nested fields included)', () => {
    it('accepts the 1,000th field and refuses the 1,001st', () => {
      spec.given([draft(many(999))]).when(create(f('last'))).thenReturns();
      spec.given([draft(many(1000))]).when(create(f('more'))).thenThrows('too_many_fields', { current: 1000, limit: 1000 });
    });

    it('counts the fields of a pinned component version', () => {
      spec.given([draft(many(990))]).when(create(nested('n', pin(9)))).thenReturns();
      spec.given([draft(many(990))]).when(create(nested('n', pin(10)))).thenThrows('too_many_fields');
      spec.given([draft([...many(500), nested('n1', pin(499))])]).when(create(f('x'))).thenThrows('too_many_fields', { current: 1001 - 1 });
    });

    it('refuses an update that pins a bigger component past the ceiling', () => {
      spec.given([draft([...many(900), nested('n', pin(10))])]).when(update('n', { meta: { component: 'comp', component_version: 'cv2' } }, pin(99))).thenReturns();
      spec.given([draft([...many(900), nested('n', pin(10))])]).when(update('n', { meta: { component: 'comp', component_version: 'cv2' } }, pin(100))).thenThrows('too_many_fields');
    });
  });

  describe('update', () => {
    const tree = [f('o', { type: 'object' }), f('p', { parent: 'o', type: 'object' }), f('q', { parent: 'o.p' }), f('s')];

    it('changes what it names and keeps the rest', () => {
      const [event] = spec.given([draft([f('s', { required: true, meta: { maxLength: 9 } })])]).when(update('s', { name: 'S', meta: {} })).thenReturns();
      expect(event).to.deep.equal({ type: 'SchemaFieldUpdated', data: { ...owner, version: 'v1', path: 's', field: f('s', { name: 'S', required: true, meta: {} }), moved: [] } });
    });

    it('renames a field with a new key and moves its subtree', () => {
      const events = spec.given([draft(tree)]).when(update('o', { key: 'r' })).thenReturns();
      expect(events[0]).to.deep.include({ type: 'SchemaFieldUpdated' });
      expect((events[0] as unknown as { data: { moved: string[]; field: FieldDef } }).data).to.deep.include({ moved: ['o.p', 'o.p.q'], field: f('r', { type: 'object' }) });
      const state = [draft(tree), ...(events as SchemaEvent[])].reduce(schema.evolve, schema.initialState());
      expect(state.versions.v1?.fields.map((x) => [x.path, x.parent])).to.deep.equal([['r', null], ['r.p', 'r'], ['r.p.q', 'r.p'], ['s', null]]);
    });

    it('refuses a key used by a sibling', () => {
      spec.given([draft(tree)]).when(update('o', { key: 's' })).thenThrows('validation_error', { key: ['must be unique within its parent'] });
    });

    it('changes the type, unless the field holds children and stops being a container', () => {
      spec.given([draft(tree)]).when(update('s', { type: 'integer' })).thenReturns();
      spec.given([draft(tree)]).when(update('o', { type: 'array', meta: { items: 'object' } })).thenReturns();
      spec.given([draft(tree)]).when(update('o', { type: 'string' })).thenThrows('validation_error', { type: ['the field has child fields; delete them first'] });
    });

    it('re-checks the children against the changed field', () => {
      const withRequired = [f('a', { type: 'array', meta: { items: 'object' } }), f('x', { parent: 'a', required: true })];
      spec.given([draft(withRequired)]).when(update('a', { meta: { items: 'object', match: 'one' } })).thenThrows('validation_error', { required: [`a child of an array with match "one" is required per item by the match, not by the flag`] });
      const withLocalized = [f('o', { type: 'object' }), f('x', { parent: 'o', localizable: true })];
      spec.given([draft(withLocalized)]).when(update('o', { localizable: true })).thenThrows('validation_error');
    });

    it('keeps the pin of a nested field while its meta is left out, and takes the new one with new meta', () => {
      const [kept] = spec.given([draft([nested('n', pin(3))])]).when(update('n', { name: 'N' })).thenReturns();
      expect((kept as { data: { field: FieldDef } }).data.field.pin).to.deep.equal(pin(3));
      const [taken] = spec.given([draft([nested('n', pin(3))])]).when(update('n', { meta: { component: 'comp', component_version: 'cv2' } }, pin(5))).thenReturns();
      expect((taken as { data: { field: FieldDef } }).data.field.pin).to.deep.equal(pin(5));
      spec.given([draft([f('s')])]).when(update('s', { type: 'nested', meta: { component: 'comp', component_version: 'cv2' } })).thenThrows('validation_error');
    });

    it('refuses an unknown path, an unknown version and a published version', () => {
      spec.given([draft(tree)]).when(update('nope', { name: 'x' })).thenThrows('validation_error', { path: ['no field at this path'] });
      spec.given([]).when(update('s', { name: 'x' })).thenThrows('version_not_found');
      spec.given([draft([f('title')]), publishedV1()]).when(update('title', { name: 'x' })).thenThrows('cannot_update_published_model');
    });
  });

  describe('delete', () => {
    it('removes a field with its subtree', () => {
      spec
        .given([draft([f('o', { type: 'object' }), f('p', { parent: 'o', type: 'object' }), f('q', { parent: 'o.p' }), f('op')])])
        .when(del('o'))
        .then([{ type: 'SchemaFieldDeleted', data: { ...owner, version: 'v1', path: 'o', removed: ['o', 'o.p', 'o.p.q'] } }]);
    });

    it('refuses an unknown path, an unknown version and a published version', () => {
      spec.given([draft([f('s')])]).when(del('nope')).thenThrows('validation_error', { path: ['no field at this path'] });
      spec.given([]).when(del('s')).thenThrows('version_not_found');
      spec.given([draft([f('title')]), publishedV1()]).when(del('title')).thenThrows('cannot_update_published_model');
    });
  });

  describe('publish', () => {
    it('publishes components nested 2 levels deep and refuses 3 with validation_error', () => {
      spec.given([draft([nested('n', pin(2, 1))])]).when(publish()).thenReturns();
      spec.given([draft([f('s'), nested('n', pin(2, 2))])]).when(publish()).thenThrows('validation_error', { n: ['nests components 3 levels deep; at most 2 are allowed'] });
    });

    it('refuses an array with match and no child fields', () => {
      spec.given([draft([f('a', { type: 'array', meta: { items: 'object', match: 'any' } })])]).when(publish()).thenThrows('validation_error', { a: ['an array with match "any" needs at least one child field'] });
    });

    it('generates the schema with the required locales of the command', () => {
      const [event] = spec.given([draft([f('t', { localizable: true })])]).when({ type: 'PublishVersion', data: { ...owner, version: 'v1', published_at: at, locales: ['fr'] } }).thenReturns();
      const json = (event as unknown as { data: { json_schema: { properties: Record<string, { required: string[] }> } } }).data.json_schema;
      expect(json.properties.t?.required).to.deep.equal(['fr']);
    });
  });
});
