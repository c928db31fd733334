/** Stream names: one owning stream per invariant (docs/architecture.md, Consistency). */
export const streams = {
  organization: (key: string) => `organization-${key}`,
  user: (key: string) => `user-${key}`,
  project: (key: string) => `project-${key}`,
  environment: (key: string) => `environment-${key}`,
  /** The collection tree of an environment. */
  collections: (env: string) => `collections-${env}`,
  /** The components of an environment (their count). */
  components: (env: string) => `components-${env}`,
  /** Versions and fields of one collection or component schema. */
  schema: (schemaKey: string) => `schema-${schemaKey}`,
  /** The delivery APIs of an environment with their connections. */
  deliveryApis: (env: string) => `apis-${env}`,
  resource: (key: string) => `resource-${key}`,
  /** The resource slots of an environment under RESOURCE_LIMIT (decision 0031). */
  resourceQuota: (env: string) => `resourcequota-${env}`,
  /** The reservation of an external_id inside a collection. */
  externalId: (folder: string, externalId: string) => `extid-${folder}-${externalId}`,
  /** Management and delivery API keys of an environment (one quota). */
  apiKeys: (env: string) => `apikeys-${env}`,
  /** Management and delivery roles of an environment with their permissions (one quota). */
  roles: (env: string) => `roles-${env}`,
  /** One webhook (docs/decisions/0353). */
  webhook: (key: string) => `webhook-${key}`,
  /** The locales of an environment (code uniqueness, one default, the quota). */
  locales: (env: string) => `locales-${env}`,
} as const;
