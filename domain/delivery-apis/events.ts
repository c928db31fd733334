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
  /** Published cross-parent read levels of a strict-reference collection (0 = fully flat). */
  readonly unscoped_levels: readonly number[];
  /** The key-bearing ancestor chain (root first) the levels were published against. */
  readonly unscoped_ancestors: readonly string[];
  readonly created_at: string;
};

/** The public fields of an API the delete event keeps as its audit snapshot. */
export type ApiSnapshot = Pick<
  ApiFields,
  'name' | 'description' | 'prefix' | 'version' | 'is_auth_required' | 'mcp_enabled' | 'router_introspection_enabled'
>;

export type ApiCreated = Message<'ApiCreated', ApiFields>;
/** The whole API after an update (PUT or PATCH). */
export type ApiUpdated = Message<'ApiUpdated', ApiFields>;
export type ApiDeleted = Message<'ApiDeleted', { readonly env: string; readonly key: string; readonly snapshot: ApiSnapshot }>;
/** `auto` marks a strict ancestor connected so that the nested route of its descendant exists. */
export type CollectionConnected = Message<'CollectionConnected', ConnectionFields & { readonly auto: boolean }>;
export type ConnectionUpdated = Message<'ConnectionUpdated', ConnectionFields>;
export type CollectionDisconnected = Message<'CollectionDisconnected', { readonly env: string; readonly api: string; readonly folder: string }>;

export type DeliveryApisEvent = ApiCreated | ApiUpdated | ApiDeleted | CollectionConnected | ConnectionUpdated | CollectionDisconnected;

export const DEFAULT_DESCRIPTIONS = {
  description_get_one: 'Returns one resource by id.',
  description_get_many: 'Returns a paginated list of resources.',
  description_search: 'Searches resources by filters.',
  description_schema: 'Returns JSON schema for this resource.',
} as const;
