import { expect } from 'chai';
import { blockingChanges } from '../../domain/schema/component-sync.js';

describe('component sync: changes that block', () => {
  const before = { properties: { lat: { type: 'number' }, name: { type: ['string', 'null'] } }, required: ['lat'] };

  it('lets additions through: a new optional property, a new required one with a default, a widened type', () => {
    const after = {
      properties: { lat: { type: ['number', 'null'] }, name: { type: ['string', 'null'] }, lon: { type: 'number' }, unit: { type: 'string', default: 'deg' } },
      required: ['lat', 'unit'],
    };
    expect(blockingChanges('loc', before, after)).to.deep.equal([]);
  });

  it('names a removed property, a narrowed type and a new required property without default, under the field path', () => {
    const after = { properties: { lat: { type: 'string' }, name: { type: 'string' }, code: { type: 'string' } }, required: ['lat', 'code'] };
    expect(blockingChanges('loc', before, after)).to.deep.equal([
      { field_path: 'loc.lat', blocking_reason: 'type_narrowed' },
      { field_path: 'loc.name', blocking_reason: 'type_narrowed' },
      { field_path: 'loc.code', blocking_reason: 'required_field_added_no_default' },
    ]);
    expect(blockingChanges('loc', before, { properties: { lat: { type: 'number' } }, required: ['lat'] })).to.deep.equal([{ field_path: 'loc.name', blocking_reason: 'field_removed' }]);
  });

  it('reads property names as own keys only (a property named constructor is a property)', () => {
    const withConstructor = { properties: { constructor: { type: 'string' } } };
    expect(blockingChanges('x', withConstructor, { properties: {} })).to.deep.equal([{ field_path: 'x.constructor', blocking_reason: 'field_removed' }]);
    expect(blockingChanges('x', { properties: {} }, withConstructor)).to.deep.equal([]);
  });
});
