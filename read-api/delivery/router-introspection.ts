import { notFound } from '../../domain/errors.js';
import type { ReadAnswer } from '../../api/delivery-ask.js';
import { readAnswer } from './caching.js';
import type { DeliveryApi, DeliveryRoute } from './routing.js';

export type Param = { readonly name: string; readonly type: string; readonly required: boolean; readonly description: string };

const p = (name: string, type: string, description: string): Param => ({ name, type, required: false, description });

export const LOCALE_PARAMS: readonly Param[] = [
  p('return_locales', 'string', 'Comma-separated locales to return in localizable fields.'),
  p('fallback_locales', 'boolean', 'Fill missing translations from the fallback chain (default false: null).'),
  p('populate', 'string', 'Comma-separated reference or relation paths to replace by their documents (depth at most 3).'),
  p('fields', 'string', 'Comma-separated data fields to return.'),
  p('raw', 'boolean', 'Localizable values as stored: every stored locale, no fallback (default false).'),
];

export const LIST_PARAMS: readonly Param[] = [
  p('limit', 'integer', 'Page size, 1 to 100 (default 100).'),
  p('next', 'string', 'Cursor from the next URL of the previous page.'),
  p('previous', 'string', 'Cursor from the previous URL of the page after.'),
  p('sort', 'string', 'Comma-separated fields, - first for descending (e.g. -_sys.created_at,title).'),
  p('search_locale', 'string', 'Locale that localizable fields are filtered and sorted in.'),
  p('truncate_text', 'integer', 'Cut text fields to this many characters.'),
  p('where__{field}__{operator}', 'string', 'Filter; several are combined with AND.'),
  ...LOCALE_PARAMS,
];

const SEARCH_BODY = {
  content_type: 'application/json',
  required: false,
  fields: [
    { name: 'where', type: 'object', required: false, description: 'Filter tree rooted at "$" with all_of / any_of / none_of groups of <field>__<operator> conditions.' },
    { name: 'find_text', type: 'object', required: false, description: 'Full-text query: {query}.' },
    { name: 'search_mode', type: 'string', required: false, description: 'text, vector, vector_boosted or hybrid.' },
    { name: 'vector_search', type: 'object', required: false, description: 'Semantic query: {query}.' },
    { name: 'sort', type: 'array', required: false, description: 'Fields, - first for descending.' },
    { name: 'fields', type: 'array', required: false, description: 'Data fields to return.' },
    { name: 'limit', type: 'integer', required: false, description: 'Page size, 1 to 100.' },
  ],
};

/** `/courses/{courses_key}/modules/` for the steps of an address. */
export const template = (route: DeliveryRoute): string => `/${route.steps.flatMap((s) => (s.keyed ? [s.alias, `{${s.alias}_key}`] : [s.alias])).join('/')}/`;

function routesOf(api: DeliveryApi, route: DeliveryRoute): Record<string, unknown>[] {
  const base = template(route);
  const schemaTemplate = `${base}_schema`;
  const ref = `/${api.prefix}${schemaTemplate}`;
  const entry = (method: string, pathTemplate: string, action: string, scope: string, extra: Record<string, unknown>) => ({
    method,
    path: `/${api.prefix}${pathTemplate}`,
    path_template: pathTemplate,
    action,
    scope,
    description: route.descriptions[action as keyof DeliveryRoute['descriptions']],
    response_ref: ref,
    response_ref_type: 'schema',
    ...extra,
  });
  const listShape = { required_fields: ['limit', 'next', 'previous', 'results'], optional_fields: [], results_item_ref: ref };
  const routes: Record<string, unknown>[] = [];
  if (route.allowed_methods.includes('get_many')) {
    routes.push(entry('GET', base, 'get_many', 'collection', { query_params: LIST_PARAMS, request_body: null, response_shape: listShape }));
    routes.push(
      entry('POST', `${base}_search`, 'search', 'collection', {
        query_params: LIST_PARAMS.filter((q) => ['limit', 'next', 'previous', 'search_locale', 'truncate_text', 'return_locales', 'fallback_locales', 'populate'].includes(q.name)),
        request_body: SEARCH_BODY,
        response_shape: listShape,
      }),
    );
  }
  if (route.allowed_methods.includes('get_one')) {
    routes.push(
      entry('GET', `${base}{key}/`, 'get_one', 'item', {
        query_params: LOCALE_PARAMS,
        request_body: null,
        response_shape: { required_fields: ['_sys'], optional_fields: ['data'], data_ref: ref },
      }),
    );
  }
  routes.push(
    entry('GET', schemaTemplate, 'schema', 'introspection', {
      query_params: [],
      request_body: null,
      response_shape: {
        required_fields: ['json_schema', 'searchable_fields', 'non_searchable_fields', 'path', 'actions', 'alias', 'content_type', 'schema_key', 'schema_version_key'],
        optional_fields: [],
      },
    }),
  );
  return routes;
}

/** `GET /{prefix}/_router`: every route the API exposes to this reader (its key's role may read the collection); 404 when router introspection is off. */
export function routerIntrospection(env: string, api: DeliveryApi, readable: (folder: string) => boolean): ReadAnswer {
  if (!api.router_introspection_enabled) throw notFound('route_not_found', 'Route');
  const body = { api: api.prefix, routes: api.routes.filter((route) => readable(route.folder)).flatMap((route) => routesOf(api, route)) };
  return readAnswer(body, [env, api.key, ...api.routes.map((r) => r.folder)]);
}
