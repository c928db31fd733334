import { expect } from 'chai';
import { collections, type CreateCollection } from '../../domain/collections/decider.js';
import type { CollectionsEvent } from '../../domain/collections/events.js';
import { components } from '../../domain/components/decider.js';
import { deliveryApis, type CollectionFacts } from '../../domain/delivery-apis/decider.js';
import type { DeliveryApisEvent } from '../../domain/delivery-apis/events.js';
import { locales } from '../../domain/locales/decider.js';
import { has, own } from '../../domain/records.js';
import { nonObjectLocalizables } from '../../domain/resource/localizable.js';
import { schema } from '../../domain/schema/decider.js';
import type { SchemaEvent } from '../../domain/schema/events.js';
import type { FieldDef } from '../../domain/schema/fields.js';
import { generateJsonSchema } from '../../domain/schema/json-schema.js';
import { deciderSpec } from '../support/decider-spec.js';

/** Names Object.prototype answers to: none of them is an entity until one is created under that name. */
const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
const at = '2026-01-01T00:00:00.000Z';

describe('keys named like Object.prototype members', () => {
  describe('the own-property helper (domain/records.ts)', () => {
    it('finds own entries only', () => {
      const record: Record<string, number> = { a: 1 };
      for (const name of NAMES) {
        expect(own(record, name), name).to.equal(undefined);
        expect(has(record, name), name).to.equal(false);
      }
      expect(own(record, 'a')).to.equal(1);
      expect(has(record, 'a')).to.equal(true);
    });

    it('finds an entry stored under such a name, __proto__ included', () => {
      const record: Record<string, number> = JSON.parse('{"__proto__": 1, "constructor": 2}');
      expect(own(record, '__proto__')).to.equal(1);
      expect(own(record, 'constructor')).to.equal(2);
      expect(has({ ...record }, '__proto__')).to.equal(true);
    });
  });

  describe('schema versions', () => {
    const spec = deciderSpec(schema);
    const owner = { env: 'e', schema_key: 'c1', schema_type: 'collection' } as const;
    const title: FieldDef = {
      key: 'title', name: '', description: '', path: 'title', parent: null, type: 'string', meta: {},
      required: false, nullable: false, multiple: false, localizable: false, searchable: false, private: false, vectorizable: false,
    };
    const v1: SchemaEvent = { type: 'SchemaVersionCreated', data: { ...owner, key: 'v1', name: '', description: '', created_at: at, fields: [title] } };

    it('refuses copy_from an inherited name with source_version_not_found', () => {
      for (const name of NAMES) {
        spec.given([v1]).when({ type: 'CreateVersion', data: { ...owner, key: 'v2', name: '', description: '', created_at: at, copy_from: name } }).thenThrows('source_version_not_found');
      }
    });

    it('answers version_not_found to update, delete, publish and field writes on such a version', () => {
      for (const key of NAMES) {
        spec.given([v1]).when({ type: 'UpdateVersion', data: { ...owner, key, name: 'x' } }).thenThrows('version_not_found');
        spec.given([v1]).when({ type: 'DeleteVersion', data: { ...owner, key } }).thenThrows('version_not_found');
        spec.given([v1]).when({ type: 'PublishVersion', data: { ...owner, version: key, published_at: at, locales: ['en'] } }).thenThrows('version_not_found');
        spec.given([v1]).when({ type: 'CreateField', data: { ...owner, version: key, field: title } }).thenThrows('version_not_found');
        spec.given([v1]).when({ type: 'DeleteField', data: { ...owner, version: key, path: 'title' } }).thenThrows('version_not_found');
      }
    });

    it('reads a version event stored without fields as a version without fields', () => {
      const legacy = { type: 'SchemaVersionCreated', data: { ...owner, key: 'v2', name: '', description: '', created_at: at } } as unknown as SchemaEvent;
      const state = [v1, legacy].reduce(schema.evolve, schema.initialState());
      expect(state.versions.v2?.fields).to.deep.equal([]);
      spec.given([v1, legacy]).when({ type: 'CreateField', data: { ...owner, version: 'v2', field: title } }).then([
        { type: 'SchemaFieldCreated', data: { ...owner, version: 'v2', field: title } },
      ]);
    });

    it('generates the JSON schema of fields named constructor and toString as own properties', () => {
      const named = (key: string): FieldDef => ({ ...title, key, path: key, required: true });
      const generated = generateJsonSchema([named('constructor'), named('toString')], { requiredLocales: ['en'] });
      const properties = generated.properties as Record<string, unknown>;
      expect(Object.keys(properties)).to.deep.equal(['constructor', 'toString']);
      expect(generated.required).to.deep.equal(['constructor', 'toString']);
    });
  });

  describe('the collection tree', () => {
    const spec = deciderSpec(collections);
    const create = (key: string, parent: string | null): CreateCollection => ({
      type: 'CreateCollection',
      data: { env: 'e', key, name: key, alias: key, parent, strict_reference: false, auto_remove_revisions: null, auto_remove_schema_versions: null, created_at: at, quota: 50 },
    });
    const root: CollectionsEvent = { type: 'CollectionCreated', data: { ...create('c1', null).data, path: 'c1', content_type: 'document' } };

    it('refuses such a parent, update, move or delete with collection_not_found', () => {
      for (const name of NAMES) {
        spec.given([root]).when(create('c2', name)).thenThrows('collection_not_found');
        spec.given([root]).when({ type: 'UpdateCollection', data: { env: 'e', key: name, changes: { name: 'x' } } }).thenThrows('collection_not_found');
        spec.given([root]).when({ type: 'UpdateCollection', data: { env: 'e', key: 'c1', changes: { parent: name } } }).thenThrows('collection_not_found');
        spec.given([root]).when({ type: 'DeleteCollection', data: { env: 'e', key: name } }).thenThrows('collection_not_found');
      }
    });
  });

  describe('components', () => {
    const spec = deciderSpec(components);
    const created = { type: 'ComponentCreated', data: { env: 'e', key: 'k1', name: 'A', description: '', content_type: 'document', created_at: at } } as const;

    it('refuses to update or delete such a component with component_not_found', () => {
      for (const key of NAMES) {
        spec.given([created]).when({ type: 'UpdateComponent', data: { env: 'e', key, name: 'x' } }).thenThrows('component_not_found');
        spec.given([created]).when({ type: 'DeleteComponent', data: { env: 'e', key, current_version: null, nested_schemas: [] } }).thenThrows('component_not_found');
      }
    });
  });

  describe('locales', () => {
    const spec = deciderSpec(locales);
    const create = (code: string) => ({ type: 'CreateLocale', data: { env: 'e', code, name: code, is_default: false, created_at: at, quota: 10 } }) as const;

    it('creates a locale whose code is such a name, then updates and deletes it', () => {
      for (const code of ['constructor', 'toString', 'hasOwnProperty']) {
        const [created] = spec.given([]).when(create(code)).thenReturns();
        expect(created).to.deep.equal({ type: 'LocaleCreated', data: { env: 'e', code, name: code, is_default: false, created_at: at } });
        const events = [created] as Parameters<typeof spec.given>[0];
        spec.given(events).when({ type: 'UpdateLocale', data: { env: 'e', code, name: 'x' } }).then([{ type: 'LocaleUpdated', data: { env: 'e', code, name: 'x', is_default: false } }]);
        spec.given(events).when({ type: 'DeleteLocale', data: { env: 'e', code } }).then([
          { type: 'LocaleDeleted', data: { env: 'e', code, snapshot: { code, name: code, is_default: false } } },
        ]);
      }
    });

    it('answers not_found to an update or delete of such a code that was never created', () => {
      for (const code of NAMES) {
        spec.given([]).when({ type: 'UpdateLocale', data: { env: 'e', code, name: 'x' } }).thenThrows('not_found');
        spec.given([]).when({ type: 'DeleteLocale', data: { env: 'e', code } }).thenThrows('not_found');
      }
    });
  });

  describe('delivery APIs and their connections', () => {
    const spec = deciderSpec(deliveryApis);
    const facts: CollectionFacts = { exists: true, strictChain: [], strictDependents: [] };
    const api: DeliveryApisEvent = {
      type: 'ApiCreated',
      data: { env: 'e', key: 'a1', name: 'site', description: '', prefix: 'site', version: '1', is_auth_required: false, mcp_enabled: true, router_introspection_enabled: true, cors_origins: [], created_at: at },
    };

    it('answers api_not_found and collection_not_found to such keys and folders', () => {
      for (const name of NAMES) {
        spec.given([api]).when({ type: 'UpdateApi', data: { env: 'e', key: name, changes: { name: 'x' } } }).thenThrows('api_not_found');
        spec.given([api]).when({ type: 'DeleteApi', data: { env: 'e', key: name } }).thenThrows('api_not_found');
        spec.given([api]).when({ type: 'UpdateConnection', data: { env: 'e', api: 'a1', folder: name, changes: {}, collection: facts } }).thenThrows('collection_not_found');
        spec.given([api]).when({ type: 'DisconnectCollection', data: { env: 'e', api: 'a1', folder: name, collection: facts } }).thenThrows('collection_not_found');
      }
    });
  });

  describe('localizable values in resource data', () => {
    it('leaves a localizable field named constructor that the data does not hold to the required rule', () => {
      const localized = { type: 'object', 'x-localizable': true, additionalProperties: { type: 'string' } };
      const generated = { type: 'object', properties: { constructor: localized, toString: localized }, required: ['constructor'] };
      expect(nonObjectLocalizables(generated, {})).to.deep.equal([]);
      expect(nonObjectLocalizables(generated, { constructor: 'x' })).to.deep.equal(['/constructor']);
    });
  });
});
