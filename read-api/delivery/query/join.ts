import { DomainError } from '../../../domain/errors.js';
import { MAX_JOINS, type JoinFilter } from '../../../projections/delivery-query.js';
import type { EnvModel } from '../models.js';
import type { DeliveryApi } from '../routing.js';
import type { Catalog } from './catalog.js';
import { resolveField } from './fields.js';
import { parseWhereNode } from './where.js';

/** What a join is checked against: the API (its connections), the environment's schemas, the queried collection. */
export type JoinContext = {
  readonly api: DeliveryApi;
  readonly model: EnvModel;
  readonly catalog: Catalog;
  readonly locale: string;
  /** Whether the reader's key may read a collection: joining one it may not is 403 access_denied (docs/decisions/0161). */
  readonly readable: (folder: string) => boolean;
};

const ALIAS = /^[A-Za-z][A-Za-z0-9_]*$/;
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A request's `join` (docs/decisions/0046): `{"as": {"<alias>": "<collection alias>"}, "relations":
 * [{"source": "$", "target": "<alias>", "source_field": "<reference or relation field>"}]}`, and
 * the `where` trees keyed by those aliases. At most 3 joined collections; each must be connected
 * to this API with get_many and readable by the key; its tree may name data fields only with get_one there.
 */
export function parseJoin(join: unknown, where: unknown, context: JoinContext): { joins: JoinFilter[]; aliases: Set<string> } {
  const errors: string[] = [];
  const refuse = (): never => {
    throw new DomainError('validation_error', 'Invalid join.', { join: errors });
  };
  if (join === undefined || join === null) return { joins: [], aliases: new Set() };
  if (!isObject(join) || !isObject(join.as) || !Array.isArray(join.relations)) {
    errors.push('must be {"as": {alias: collection}, "relations": [{source, target, source_field}]}');
    return refuse();
  }
  const entries = Object.entries(join.as);
  if (entries.length === 0 || entries.length > MAX_JOINS) {
    errors.push(`joins 1 to ${MAX_JOINS} collections`);
    return refuse();
  }
  const targets = new Map<string, { folder: string; catalog: Catalog }>();
  for (const [alias, collectionAlias] of entries) {
    const routes = context.api.routes.filter((r) => r.steps[r.steps.length - 1]?.alias === collectionAlias);
    const route = routes.find((r) => r.allowed_methods.includes('get_many'));
    if (!ALIAS.test(alias)) errors.push(`as.${alias}: an alias is a letter followed by letters, digits or _`);
    else if (typeof collectionAlias !== 'string' || !route) errors.push(`as.${alias}: ${String(collectionAlias)} is not a collection this API lists`);
    else {
      const readable = routes.some((r) => r.allowed_methods.includes('get_one'));
      targets.set(alias, { folder: route.folder, catalog: readable ? (context.model.collections.get(route.folder)?.catalog ?? new Map()) : new Map() });
    }
  }
  const fields = new Map<string, string[]>();
  for (const [i, relation] of join.relations.entries()) {
    const at = `relations[${i}]`;
    if (!isObject(relation)) {
      errors.push(`${at}: must be {source, target, source_field}`);
      continue;
    }
    const { source, target, source_field } = relation;
    if (source !== '$') errors.push(`${at}.source: only "$" (the queried collection) can be a source`);
    if (typeof target !== 'string' || !targets.has(target)) errors.push(`${at}.target: ${String(target)} is not an alias of join.as`);
    else if (fields.has(target)) errors.push(`${at}.target: ${target} has a relation already`);
    const field = typeof source_field === 'string' ? resolveField(source_field, { catalog: context.catalog, locale: context.locale }) : null;
    if (!field || field.ref.scope !== 'data' || !field.field?.reference) errors.push(`${at}.source_field: ${String(source_field)} is not a reference or relation field`);
    else if (typeof target === 'string') fields.set(target, [...field.ref.path]);
  }
  for (const alias of targets.keys()) if (!fields.has(alias)) errors.push(`as.${alias}: no relation joins it`);
  if (errors.length > 0) return refuse();
  if ([...targets.values()].some((t) => !context.readable(t.folder))) {
    throw new DomainError('access_denied', 'The key may not read a joined collection.', { action: 'read' });
  }
  const trees = isObject(where) ? where : {};
  const joins = [...targets].map(([alias, { folder, catalog }]): JoinFilter => {
    const tree = trees[alias];
    const field = fields.get(alias) as string[];
    return tree === undefined ? { field, folder } : { field, folder, where: parseWhereNode(tree, { catalog, locale: context.locale }, alias) };
  });
  return { joins, aliases: new Set(targets.keys()) };
}
