import { statusOf } from '../http/errors.js';

/** The not-found code a path parameter's miss answers. */
const NOT_FOUND: Readonly<Record<string, string>> = {
  env: 'environment_not_found',
  environment: 'environment_not_found',
  project: 'project_not_found',
  collection: 'collection_not_found',
  resource: 'resource_not_found',
  revision: 'revision_not_found',
  version: 'version_not_found',
  component: 'component_not_found',
  api: 'api_not_found',
};

/** Codes particular to some operations: method and a path suffix, as request schemas are matched. */
const PARTICULAR: readonly (readonly [string, RegExp, readonly string[]])[] = [
  ['POST', /\/resources\/$/, ['external_id_conflict', 'external_id_required', 'resource_owner_required', 'resource_owner_not_found', 'localizable_data_should_be_object', 'collection_not_writable']],
  ['PUT', /\/resources\/$/, ['external_id_conflict', 'external_id_required', 'plan_limit_exceeded', 'localizable_data_should_be_object']],
  ['PUT', /\/resources\/:resource\/$/, ['revision_number_conflict', 'revision_precondition_failed', 'invalid_revision_precondition']],
  ['DELETE', /\/resources\/:resource\/$/, ['strict_reference_error', 'revision_precondition_failed']],
  ['POST', /\/revisions\/$/, ['revision_number_conflict']],
  ['PUT', /\/revisions\/:revision\/$/, ['revision_number_conflict']],
  ['POST', /\/revisions\/:revision\/publish\/$/, ['revision_number_conflict']],
  ['POST', /\/versions\/:version\/publish\/$/, ['cannot_publish_empty_schema', 'version_already_published', 'cannot_publish_archived_version', 'valid_drafts_exist']],
  ['POST', /\/versions\/$/, ['too_many_versions', 'source_version_not_found']],
  ['POST', /\/schema\/tree\/$/, ['cannot_update_published_model', 'too_many_fields']],
  ['PUT', /\/schema\/tree\/field\/$/, ['cannot_update_published_model']],
  ['DELETE', /\/schema\/tree\/field\/$/, ['cannot_update_published_model']],
  ['POST', /\/sync_component\/$/, ['component_sync_conflict']],
  ['DELETE', /\/(collections|folders)\/tree\/(collection|folder)\/$/, ['cannot_delete_published_schema']],
  ['POST', /\/api\/$/, ['api_prefix_exists']],
  ['PUT', /\/api\/:api\/$/, ['api_prefix_exists']],
  ['PATCH', /\/api\/:api\/$/, ['api_prefix_exists']],
  ['POST', /\/api\/:api\/(collections|folders)\/$/, ['collection_already_connected_to_api']],
  ['POST', /\/toggle\/$/, ['environment_toggle_error']],
];

/** Creations count against a plan limit (keys, roles, collections, APIs, locales, ...). */
const isCreate = (method: string, path: string): boolean => method === 'POST' && !/[:*][A-Za-z_]+\/$/.test(path) && !/\/(publish|validate|batch|bearer-token|rotate-secret|retry|verify|toggle|protection|sync_component)\/$/.test(path);

/**
 * Every error code an operation can answer, by HTTP status: from its credentials, its
 * environment, its path parameters, its body and the operation itself.
 */
export function errorCodesOf(method: string, path: string, open: boolean): Map<number, string[]> {
  const codes = new Set<string>(path.startsWith('/:env/:prefix/') ? DELIVERY : []);
  if (codes.size > 0) return byStatus(codes);
  if (!open) codes.add('authentication_failed').add('permission_denied').add('rate_limited');
  for (const [, name] of path.matchAll(/[:*]([A-Za-z_]+)/g)) codes.add(NOT_FOUND[name as string] ?? 'not_found');
  const write = method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';
  if (write && path.startsWith('/v1/:env/')) codes.add('environment_disabled').add('environment_protected').add('plan_exhausted').add('spend_cap_reached');
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') codes.add('unsupported_media_type').add('json_size_exceeded');
  if (!open) codes.add('validation_error');
  if (isCreate(method, path) && path.startsWith('/v1/:env/')) codes.add('plan_limit_exceeded');
  for (const [m, suffix, particular] of PARTICULAR) if (m === method && suffix.test(path)) particular.forEach((code) => codes.add(code));
  return byStatus(codes);
}

/** What a delivery address answers when it refuses. */
const DELIVERY = ['authentication_required', 'access_denied', 'environment_not_found', 'api_not_found', 'collection_not_found', 'resource_not_found', 'route_not_found', 'validation_error', 'rate_limited'];

function byStatus(codes: Iterable<string>): Map<number, string[]> {
  const grouped = new Map<number, string[]>();
  for (const code of codes) grouped.set(statusOf(code), [...(grouped.get(statusOf(code)) ?? []), code]);
  return new Map([...grouped].sort(([a], [b]) => a - b));
}
