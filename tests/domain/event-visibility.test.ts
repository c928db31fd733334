import { expect } from 'chai';
import { EVENT_ENTITY_SCOPES, visibleEntities } from '../../domain/roles/event-visibility.js';
import { CONTENT_TYPES } from '../../domain/roles/content-types.js';

const ENV_ENTITY_TYPES = [
  'collection', 'resource', 'revision', 'component', 'version', 'api', 'manageapikey', 'deliveryapikey',
  'managepermissionrole', 'deliverypermissionrole', 'envrole', 'deliveryrole', 'locale',
  // Beyond the specification: webhooks (docs/decisions/0353).
  'webhook',
];

describe('which environment events a management role sees', () => {
  it('gives every environment entity type of the specification a management content type', () => {
    expect(Object.keys(EVENT_ENTITY_SCOPES).sort()).to.deep.equal([...ENV_ENTITY_TYPES].sort());
    for (const scope of Object.values(EVENT_ENTITY_SCOPES)) expect(CONTENT_TYPES.management).to.include(scope.content_type);
  });

  it('sees nothing without a read permission, and nothing of a listed permission with no objects', () => {
    expect(visibleEntities([])).to.deep.equal([]);
    expect(visibleEntities([{ content_type: 'collections', actions: ['create', 'update'], all_objects: true, objects: [] }])).to.deep.equal([]);
    expect(visibleEntities([{ content_type: 'collections', actions: ['read'], all_objects: false, objects: [] }])).to.deep.equal([]);
  });

  it('groups the entity types one permission covers, with its objects when it lists them', () => {
    const seen = visibleEntities([
      { content_type: 'resources', actions: ['read'], all_objects: false, objects: ['c1', 'c2'] },
      { content_type: 'delivery-api', actions: ['read'], all_objects: true, objects: ['ignored'] },
    ]);
    expect(seen).to.deep.equal([
      { entity_types: ['resource', 'revision'], object_field: 'collection_key', objects: ['c1', 'c2'] },
      { entity_types: ['deliveryapikey', 'deliveryrole'], object_field: 'entity_key', objects: null },
      { entity_types: ['deliverypermissionrole'], object_field: 'metadata.role_key', objects: null },
    ]);
  });
});
