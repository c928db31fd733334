import { auditEntryView } from '../projections/audit-entry.js';
import type { Doc } from '../projections/ports.js';

/** Read-model documents shaped as the specification's objects (internal fields dropped). */

/** The fields in their order, a missing one as null; a plain loop (no pairs array per call: docs/decisions/0271). */
const pick = (doc: Doc, fields: readonly string[]): Record<string, unknown> => {
  const view: Record<string, unknown> = {};
  for (const field of fields) {
    const value = doc[field];
    view[field] = value === undefined ? null : value;
  }
  return view;
};

export const collectionView = (doc: Doc) =>
  pick(doc, [
    'key',
    'name',
    'alias',
    'path',
    'parent',
    'content_type',
    'strict_reference',
    'auto_remove_revisions',
    'auto_remove_schema_versions',
    'embedding_model',
    'embedding_dimension',
    'created_at',
  ]);

export const componentView = (doc: Doc) => ({
  ...pick(doc, ['key', 'name', 'description']),
  environment: doc.env,
  ...pick(doc, ['content_type', 'created_at', 'current_version']),
});

export const versionView = (doc: Doc, includeSchema = true) => {
  const view = pick(doc, ['key', 'version_number', 'name', 'description', 'created_at', 'published_at', 'archived_at']);
  if (includeSchema) view.json_schema = doc.json_schema ?? null;
  return view;
};

export const fieldView = (doc: Doc) =>
  pick(doc, ['key', 'name', 'description', 'path', 'parent', 'type', 'meta', 'required', 'nullable', 'multiple', 'localizable', 'searchable', 'private', 'vectorizable']);

export const apiView = (doc: Doc) => ({
  ...pick(doc, ['key', 'name', 'description', 'prefix', 'version', 'is_auth_required', 'mcp_enabled', 'router_introspection_enabled', 'cors_origins', 'created_at']),
  environment: doc.env,
});

export const connectionView = (doc: Doc) =>
  pick(doc, [
    'folder',
    'api',
    'allowed_methods',
    'description_get_one',
    'description_get_many',
    'description_search',
    'description_schema',
    'mcp_truncate_text',
    'unscoped_levels',
    'unscoped_ancestors',
    'created_at',
  ]);

export const resourceView = (doc: Doc) =>
  pick(doc, ['key', 'name', 'folder', 'content_type', 'external_id', 'created_at', 'resource_owner', 'current_revision', 'vectors_size']);

export const revisionView = (doc: Doc) => ({
  ...pick(doc, ['key', 'resource', 'schema_version', 'number', 'size', 'status', 'is_valid', 'created_at', 'published_at', 'unpublished_at']),
  scheduled_publish_at: doc.scheduled_publish_at ?? null,
});

export const auditView = (doc: Doc) => auditEntryView(doc);

/** An API key as reads show it: the secret never, its hash never. */
export const apiKeyView = (doc: Doc) => ({
  ...pick(doc, ['key', 'description', 'public_key', 'role', 'created_at']),
  environment: doc.env,
  spend_cap_usd: doc.spend_cap_usd ?? null,
  // A delivery key shows the first 12 characters of its bearer token (null until one is issued).
  ...(doc.kind === 'delivery' ? { bearer_token_prefix: doc.bearer_token_prefix ?? null } : {}),
});

export const localeView = (doc: Doc) => ({ ...pick(doc, ['name', 'code']), environment: doc.env, ...pick(doc, ['is_default', 'created_at']) });

/** The audit actor of an API key (specification, Event object). */
export const keyActor = (doc: Doc): Record<string, unknown> => ({
  key: doc.key,
  description: doc.description,
  public_key: doc.public_key,
  role: doc.role,
  created_at: doc.created_at,
  environment: doc.env,
  deleted_at: null,
});
