import { apiKeysProjection } from './api-keys.js';
import { auditLogProjection } from './audit-log.js';
import { collectionCascadeProjection } from './collection-cascade.js';
import { collectionsProjection } from './collections.js';
import { componentsProjection } from './components.js';
import { deliveryApisProjection } from './delivery-apis.js';
import { localesProjection } from './locales.js';
import type { ReadModelProjection } from './read-model-target.js';
import { resourcesProjection } from './resources.js';
import { revisionsProjection } from './revisions.js';
import { rolesProjection } from './roles.js';
import { schedulesProjection } from './schedules.js';
import { schemaFieldsProjection } from './schema-fields.js';
import { schemaVersionsProjection } from './schema-versions.js';
import { tenancyProjection } from './tenancy.js';
import { webhooksProjection } from './webhooks.js';

/**
 * The read models the service follows and `npm run rebuild` rebuilds, so the two cannot
 * differ: the `read-models` consumer's projections ...
 */
export const READ_MODELS: readonly ReadModelProjection[] = [
  tenancyProjection,
  collectionsProjection,
  componentsProjection,
  schemaVersionsProjection,
  schemaFieldsProjection,
  deliveryApisProjection,
  resourcesProjection,
  apiKeysProjection,
  rolesProjection,
  auditLogProjection,
  collectionCascadeProjection,
  localesProjection,
  webhooksProjection,
  schedulesProjection('schedules'),
];

/** ... and the `revisions` consumer's (revision payloads: resource lists do not wait for them). */
export const REVISION_MODELS: readonly ReadModelProjection[] = [revisionsProjection];
