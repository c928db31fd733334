import type { Message } from '../decider.js';

export const ALLOWED_METHODS = ['get_many', 'get_one', 'create', 'update'] as const;
export type AllowedMethod = (typeof ALLOWED_METHODS)[number];

export type ApiFields = {
  readonly env: string;
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly prefix: string;
  readonly version: '1';
  readonly is_auth_required: boolean;
  readonly mcp_enabled: boolean;
  readonly router_introspection_enabled: boolean;
  readonly cors_origins: readonly string[];
  readonly created_at: string;
};

export type ConnectionFields = {
  readonly env: string;
  readonly api: string;
  readonly folder: string;
  readonly allowed_methods: readonly AllowedMethod[];
  readonly description_get_one: string;
  readonly description_get_many: string;
  readonly description_search: string;
  readonly description_schema: string;
  readonly mcp_truncate_text: number | null;
  readonly created_at: string;
};

export type ApiCreated = Message<'ApiCreated', ApiFields>;
export type CollectionConnected = Message<'CollectionConnected', ConnectionFields>;

export type DeliveryApisEvent = ApiCreated | CollectionConnected;

export const DEFAULT_DESCRIPTIONS = {
  description_get_one: 'Returns one resource by id.',
  description_get_many: 'Returns a paginated list of resources.',
  description_search: 'Searches resources by filters.',
  description_schema: 'Returns JSON schema for this resource.',
} as const;
