/**
 * Localizable fields take an object keyed by locale code. The published JSON schema marks
 * them with `x-localizable: true`; this walks the schema's properties (top level, nested
 * objects, array items and local `$ref`s into `$defs`) alongside the data and returns the
 * paths of localizable values that are not objects. Missing values and null are left to
 * the schema (required and nullable rules). Schema and data are read through their own
 * properties only: a field named `constructor` left out of the data is missing, not a function.
 */

import { own } from '../records.js';

type Schema = { readonly [keyword: string]: unknown };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const MAX_DEPTH = 32;

function resolve(root: Schema, schema: Schema): Schema {
  const ref = own(schema, '$ref');
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let target: unknown = root;
  for (const part of ref.slice(2).split('/')) target = isObject(target) ? own(target, part.replace(/~1/g, '/').replace(/~0/g, '~')) : undefined;
  return isObject(target) ? target : schema;
}

function walk(root: Schema, node: Schema, value: unknown, path: string, found: string[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  const schema = resolve(root, node);
  if (own(schema, 'x-localizable') === true) {
    if (value !== undefined && value !== null && !isObject(value)) found.push(path || '/');
    return;
  }
  const properties = own(schema, 'properties');
  if (isObject(value) && isObject(properties)) {
    for (const [name, property] of Object.entries(properties)) {
      if (isObject(property)) walk(root, property, own(value, name), `${path}/${name}`, found, depth + 1);
    }
  }
  const items = own(schema, 'items');
  if (Array.isArray(value) && isObject(items)) {
    value.forEach((item, i) => walk(root, items, item, `${path}/${i}`, found, depth + 1));
  }
}

/** Paths (JSON pointers) of localizable fields whose value is not an object. */
export function nonObjectLocalizables(schema: Schema, data: unknown): string[] {
  const found: string[] = [];
  walk(schema, schema, data, '', found, 0);
  return found;
}
