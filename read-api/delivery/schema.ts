import { notFound } from '../../domain/errors.js';
import type { DeliveryAsk, ReadAnswer } from '../../api/delivery-ask.js';
import { readAnswer } from './caching.js';
import type { ListContext } from './list.js';
import { refuseUnknownParameters } from './query/read-options.js';
import type { Match } from './scope.js';

/** The address of a match with its keys filled in: `/{prefix}/courses/c1/modules`. */
export function concretePath(prefix: string, match: Match): string {
  const parts = match.route.steps.flatMap((s) => (s.keyed ? [s.alias, match.keys.get(s.folder) ?? ''] : [s.alias]));
  return `/${[prefix, ...parts].join('/')}`;
}

/**
 * `GET /{prefix}/{collection path}/_schema`: the active published JSON schema of the
 * collection, its searchable and other fields, and the read actions the connection enables.
 */
export function collectionSchema(ask: DeliveryAsk, { env, api, match, routing }: ListContext): ReadAnswer {
  refuseUnknownParameters(ask.query, [], false);
  const { route } = match;
  const collection = routing.model(env).collections.get(route.folder);
  if (!collection || !collection.json_schema) throw notFound('schema_not_found', 'Published schema');
  const body = {
    json_schema: collection.json_schema,
    searchable_fields: collection.searchable,
    non_searchable_fields: collection.non_searchable,
    path: concretePath(api.prefix, match),
    actions: ['get_many', 'get_one'].filter((m) => route.allowed_methods.includes(m)),
    alias: collection.alias,
    content_type: 'document',
    schema_key: collection.key,
    schema_version_key: collection.version,
  };
  return readAnswer(body, [env, api.key, collection.key]);
}
