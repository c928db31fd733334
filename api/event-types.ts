/** The entity types of environment events (webhooks subscribe to `<entity_type>.<event_type>` of these). */
export const ENV_ENTITIES = [
  'collection', 'resource', 'revision', 'component', 'version', 'api', 'manageapikey', 'deliveryapikey',
  'managepermissionrole', 'deliverypermissionrole', 'envrole', 'deliveryrole', 'locale', 'webhook',
] as const;
export const EVENT_TYPES = ['create', 'update', 'delete'] as const;
