import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { DataValidator } from '../../commands/data-validator.js';
import { generateJsonSchema, LOCALIZABLE_KEYWORD, type JsonSchema } from '../../domain/schema/json-schema.js';
import type { FieldDef } from '../../domain/schema/fields.js';
import { fieldDef as f } from '../support/fields.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DRAFT = 'https://json-schema.org/draft/2020-12/schema';
const en = { requiredLocales: ['en'] };

/** Compiles in ajv's strict mode: every keyword must be known (x-localizable declared). */
function strictCompile(schema: JsonSchema) {
  const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));
  ajv.addKeyword(LOCALIZABLE_KEYWORD);
  return ajv.compile(schema);
}

const root = (properties: Record<string, unknown>, required: string[] = [], extra: Record<string, unknown> = {}) => ({
  $schema: DRAFT,
  type: 'object',
  properties,
  required,
  additionalProperties: false,
  ...extra,
});

describe('JSON schema generator', () => {
  it('gives each scalar type its schema and keeps the validations', () => {
    const fields: FieldDef[] = [
      f('title', { required: true, name: 'Title', meta: { minLength: 2, pattern: '^[A-Z]' } }),
      f('status', { meta: { enum: ['draft', 'live'] } }),
      f('body', { type: 'text', description: 'Long text' }),
      f('views', { type: 'integer', meta: { minimum: 0, maximum: 10 } }),
      f('score', { type: 'number', meta: { enum: [1.5, 2.5] } }),
      f('ok', { type: 'boolean' }),
      f('day', { type: 'date' }),
      f('at', { type: 'time' }),
      f('when', { type: 'datetime' }),
      f('extra', { type: 'json', nullable: true }),
    ];
    expect(generateJsonSchema(fields, en)).to.deep.equal(
      root(
        {
          title: { type: 'string', maxLength: 255, minLength: 2, pattern: '^[A-Z]', title: 'Title' },
          status: { type: 'string', maxLength: 255, enum: ['draft', 'live'] },
          body: { type: 'string', description: 'Long text' },
          views: { type: 'integer', minimum: 0, maximum: 10 },
          score: { type: 'number', enum: [1.5, 2.5] },
          ok: { type: 'boolean' },
          day: { type: 'string', format: 'date' },
          at: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{3})?Z$' },
          when: { type: 'string', format: 'date-time', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?Z$' },
          extra: {},
        },
        ['title'],
      ),
    );
  });

  it('gives references, relations, vectors, objects and scalar arrays their schemas, with multiple and nullable', () => {
    const fields: FieldDef[] = [
      f('author', { type: 'reference', meta: { collections: ['people', 'bots'] } }),
      f('related', { type: 'relation' }),
      f('embedding', { type: 'vector', meta: { dimensions: 256 } }),
      f('tags', { type: 'array', meta: { items: 'string', maxLength: 20 } }),
      f('seo', { type: 'object', nullable: true }),
      f('slug', { parent: 'seo', required: true }),
      f('codes', { type: 'integer', multiple: true }),
    ];
    expect(generateJsonSchema(fields, en)).to.deep.equal(
      root({
        author: { type: 'string', pattern: '^(people|bots)::[A-Za-z0-9_-]+$' },
        related: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9_-]+::[A-Za-z0-9_-]+$' }, uniqueItems: true },
        embedding: { type: 'array', items: { type: 'number' }, minItems: 256, maxItems: 256 },
        tags: { type: 'array', items: { type: 'string', maxLength: 20 } },
        seo: {
          anyOf: [{ type: 'object', properties: { slug: { type: 'string', maxLength: 255 } }, required: ['slug'], additionalProperties: false }, { type: 'null' }],
        },
        codes: { type: 'array', items: { type: 'integer' } },
      }),
    );
  });

  it('marks a localizable field x-localizable: an object keyed by locale holding the required locales', () => {
    const fields = [f('title', { localizable: true, required: true, nullable: true, name: 'Title' }), f('body', { type: 'text', localizable: true })];
    const value = { anyOf: [{ type: 'string', maxLength: 255 }, { type: 'null' }] };
    expect(generateJsonSchema(fields, { requiredLocales: ['en', 'de'] })).to.deep.equal(
      root(
        {
          title: {
            type: 'object',
            'x-localizable': true,
            properties: { en: value, de: value },
            required: ['en', 'de'],
            propertyNames: { pattern: '^[A-Za-z]+(_[A-Za-z]+)*$' },
            additionalProperties: value,
            title: 'Title',
          },
          body: {
            type: 'object',
            'x-localizable': true,
            properties: { en: { type: 'string' }, de: { type: 'string' } },
            required: ['en', 'de'],
            propertyNames: { pattern: '^[A-Za-z]+(_[A-Za-z]+)*$' },
            additionalProperties: { type: 'string' },
          },
        },
        ['title'],
      ),
    );
  });

  const matchArray = (match: 'any' | 'all' | 'one'): FieldDef[] => [
    f('blocks', { type: 'array', meta: { items: 'object', match } }),
    f('heading', { parent: 'blocks' }),
    f('count', { parent: 'blocks', type: 'integer' }),
  ];
  const items = (combinator: string) => ({
    type: 'object',
    properties: { heading: { type: 'string', maxLength: 255 }, count: { type: 'integer' } },
    additionalProperties: false,
    [combinator]: [
      { properties: { heading: { type: 'string', maxLength: 255 } }, required: ['heading'] },
      { properties: { count: { type: 'integer' } }, required: ['count'] },
    ],
  });

  for (const [match, combinator] of [['any', 'anyOf'], ['all', 'allOf'], ['one', 'oneOf']] as const) {
    it(`gives each item of an object array with match "${match}" an ${combinator} of branches that each require their child`, () => {
      expect(generateJsonSchema(matchArray(match), en)).to.deep.equal(root({ blocks: { type: 'array', items: items(combinator) } }));
    });
  }

  it('validates items by the match mode: any needs one child, all needs every child, one exactly one; unknown keys never', () => {
    const v = new DataValidator();
    const check = (match: 'any' | 'all' | 'one', item: unknown) => v.validate(`m-${match}`, generateJsonSchema(matchArray(match), en), { blocks: [item] }).length === 0;
    expect([{}, { heading: 'h' }, { count: 1 }, { heading: 'h', count: 1 }, { other: 1 }].map((i) => check('any', i))).to.deep.equal([false, true, true, true, false]);
    expect([{}, { heading: 'h' }, { count: 1 }, { heading: 'h', count: 1 }, { heading: 'h', count: 1, other: 1 }].map((i) => check('all', i))).to.deep.equal([false, false, false, true, false]);
    expect([{}, { heading: 'h' }, { count: 1 }, { heading: 'h', count: 1 }].map((i) => check('one', i))).to.deep.equal([false, true, true, false]);
  });

  it('gives an object array without match plain object items', () => {
    const fields = [f('links', { type: 'array', meta: { items: 'object' } }), f('url', { parent: 'links', required: true })];
    expect(generateJsonSchema(fields, en)).to.deep.equal(
      root({ links: { type: 'array', items: { type: 'object', properties: { url: { type: 'string', maxLength: 255 } }, required: ['url'], additionalProperties: false } } }),
    );
  });

  it('bundles nested component versions under $defs, hoisting their own $defs, referenced with $ref', () => {
    const address = generateJsonSchema([f('city', { required: true })], en);
    const person = generateJsonSchema(
      [f('name'), f('home', { type: 'nested', meta: { component: 'addr', component_version: 'a1' }, pin: { json_schema: address, fields: 1, depth: 0 } })],
      en,
    );
    const fields = [
      f('author', { type: 'nested', required: true, meta: { component: 'person', component_version: 'p1' }, pin: { json_schema: person, fields: 3, depth: 1 } }),
      f('editors', { type: 'nested', multiple: true, meta: { component: 'person', component_version: 'p1' }, pin: { json_schema: person, fields: 3, depth: 1 } }),
    ];
    const addressDef = { type: 'object', properties: { city: { type: 'string', maxLength: 255 } }, required: ['city'], additionalProperties: false };
    const personDef = {
      type: 'object',
      properties: { name: { type: 'string', maxLength: 255 }, home: { $ref: '#/$defs/addr.a1' } },
      required: [],
      additionalProperties: false,
    };
    expect(generateJsonSchema(fields, en)).to.deep.equal(
      root(
        { author: { $ref: '#/$defs/person.p1' }, editors: { type: 'array', items: { $ref: '#/$defs/person.p1' } } },
        ['author'],
        { $defs: { 'addr.a1': addressDef, 'person.p1': personDef } },
      ),
    );
    const v = new DataValidator();
    const schema = generateJsonSchema(fields, en);
    expect(v.validate('n', schema, { author: { name: 'A', home: { city: 'Oslo' } }, editors: [{ name: 'B' }] })).to.deep.equal([]);
    expect(v.validate('n', schema, { author: { home: {} } })).to.have.length.greaterThan(0);
  });

  it('produces schemas that compile in ajv strict mode for every type, flag and match mode', () => {
    const nested = generateJsonSchema([f('city')], en);
    const all: FieldDef[] = [
      f('s', { localizable: true, meta: { enum: ['a'] } }),
      f('t', { type: 'text', multiple: true, nullable: true }),
      f('i', { type: 'integer', meta: { minimum: 1 } }),
      f('n', { type: 'number' }),
      f('b', { type: 'boolean' }),
      f('d', { type: 'date' }),
      f('tm', { type: 'time' }),
      f('dt', { type: 'datetime' }),
      f('j', { type: 'json' }),
      f('r', { type: 'reference' }),
      f('rel', { type: 'relation', meta: { collections: ['c'] } }),
      f('o', { type: 'object' }),
      f('oc', { parent: 'o', localizable: true }),
      f('a', { type: 'array', meta: { items: 'date' } }),
      f('any', { type: 'array', meta: { items: 'object', match: 'any' } }),
      f('x', { parent: 'any' }),
      f('allm', { type: 'array', meta: { items: 'object', match: 'all' } }),
      f('y', { parent: 'allm' }),
      f('onem', { type: 'array', meta: { items: 'object', match: 'one' } }),
      f('z', { parent: 'onem' }),
      f('ne', { type: 'nested', meta: { component: 'c', component_version: 'v' }, pin: { json_schema: nested, fields: 1, depth: 0 } }),
      f('ve', { type: 'vector', meta: { dimensions: 384 } }),
    ];
    const validate = strictCompile(generateJsonSchema(all, en));
    expect(validate({ s: { en: 'a' }, t: null, d: '2026-02-28', tm: '10:00:00Z', dt: '2026-01-01T10:00:00.123Z', r: 'c::k', rel: ['c::a'] }), JSON.stringify(validate.errors)).to.equal(true);
    expect(validate({ d: '2026-02-30' })).to.equal(false);
    expect(validate({ tm: '10:00:00' })).to.equal(false);
    expect(validate({ dt: '2026-01-01T10:00:00+02:00' })).to.equal(false);
    expect(validate({ rel: ['other::a'] })).to.equal(false);
  });
});
