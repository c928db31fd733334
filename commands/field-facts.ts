import { DomainError, notFound } from '../domain/errors.js';
import { own } from '../domain/records.js';
import { schema } from '../domain/schema/decider.js';
import { countFields, nestingDepth } from '../domain/schema/field-tree.js';
import type { FieldMeta, NestedPin } from '../domain/schema/fields.js';
import { generateJsonSchema } from '../domain/schema/json-schema.js';
import type { CommandBus } from './command-bus.js';
import { collectionNode } from './collections.js';
import { componentNode } from './components.js';
import type { CommandContext } from './context.js';
import { requiredLocales } from './required-locales.js';
import { streams } from './streams.js';

/** Facts a field definition names in other streams, looked up before the command (docs/decisions/0028). */

/**
 * The pinned component version of a nested field: 404 component_not_found when the
 * environment has no such component, 404 version_not_found when its schema has no such
 * version, 422 validation_error for a draft. Its facts come from the component's schema stream.
 */
export async function nestedPin(bus: CommandBus, ctx: CommandContext, meta: FieldMeta): Promise<NestedPin | null> {
  const { component, component_version: key } = meta;
  if (component === undefined || key === undefined) return null;
  if (!(await componentNode(bus, ctx.env, component))) throw notFound('component_not_found', 'Component');
  const { state } = await bus.load(schema, streams.schema(component));
  const version = own(state.versions, key);
  if (!version) throw notFound('version_not_found', 'Component version');
  if (version.version_number === null) {
    throw new DomainError('validation_error', 'A nested field pins a published component version.', {
      'meta.component_version': ['must be a published version of the component'],
    });
  }
  const json_schema =
    state.published === key && state.publishedSchema
      ? state.publishedSchema
      : generateJsonSchema(version.fields, { requiredLocales: await requiredLocales(bus, ctx.env) });
  return { json_schema, fields: countFields(version.fields), depth: nestingDepth(version.fields) };
}

/** The target collections of a reference or relation field exist in the environment: 404 collection_not_found otherwise. */
export async function checkTargetCollections(bus: CommandBus, ctx: CommandContext, meta: FieldMeta): Promise<void> {
  for (const key of meta.collections ?? []) {
    if (!(await collectionNode(bus, ctx.env, key))) {
      throw new DomainError('collection_not_found', `Collection ${key} not found.`, { 'meta.collections': [`no collection ${key}`] });
    }
  }
}
