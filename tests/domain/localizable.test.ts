import { expect } from 'chai';
import { nonObjectLocalizables } from '../../domain/resource/localizable.js';

const schema = {
  type: 'object',
  properties: {
    title: { type: 'object', 'x-localizable': true, additionalProperties: { type: 'string' } },
    views: { type: 'integer' },
    seo: { type: 'object', properties: { description: { 'x-localizable': true, type: 'object' } } },
    blocks: { type: 'array', items: { $ref: '#/$defs/block' } },
  },
  $defs: { block: { type: 'object', properties: { caption: { 'x-localizable': true, type: 'object' } } } },
};

describe('localizable fields (x-localizable) in resource data', () => {
  it('accepts objects keyed by locale, and fields left out or null', () => {
    expect(nonObjectLocalizables(schema, { title: { en: 'Hi', de: 'Hallo' }, views: 3, seo: { description: { en: 'x' } } })).to.deep.equal([]);
    expect(nonObjectLocalizables(schema, { views: 3, title: null })).to.deep.equal([]);
  });

  it('finds non-object values at the top level, in nested objects and in array items through $defs', () => {
    const data = { title: 'Hi', seo: { description: ['x'] }, blocks: [{ caption: { en: 'ok' } }, { caption: 5 }] };
    expect(nonObjectLocalizables(schema, data)).to.deep.equal(['/title', '/seo/description', '/blocks/1/caption']);
  });

  it('ignores schemas without localizable fields', () => {
    expect(nonObjectLocalizables({ type: 'object', properties: { title: { type: 'string' } } }, { title: 'x' })).to.deep.equal([]);
  });
});
