import type { SchemaRef } from '../domain/schema/events.js';

/** The `:path` forms of the specification: a collection (also as `folders`) or a component. */
const VERSION_BASES = [
  '/collections/:collection/model/versions',
  '/folders/:collection/model/versions',
  '/components/:component/model/versions',
];

export const versionPaths = (suffix: string): string[] => VERSION_BASES.map((base) => `${base}${suffix}`);

/** The schema a request names, from the route parameters. */
export function schemaRef(req: { readonly params: unknown }): SchemaRef {
  const { collection, component } = req.params as { collection?: string; component?: string };
  if (collection !== undefined) return { type: 'collection', key: collection };
  return { type: 'component', key: component ?? '' };
}
