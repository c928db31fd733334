import { nonCollectionCannotHaveModel, notFound } from '../domain/errors.js';
import type { SchemaOwner, SchemaRef } from '../domain/schema/events.js';
import type { CommandBus } from './command-bus.js';
import { collectionNode } from './collections.js';
import { componentNode } from './components.js';
import type { CommandContext } from './context.js';

/**
 * The owner of a schema, checked against its owning stream: 404 when the collection or component
 * is missing; 422 non_collection_cannot_have_model when the collection form names a component.
 */
export async function schemaOwner(bus: CommandBus, ctx: CommandContext, ref: SchemaRef): Promise<SchemaOwner> {
  switch (ref.type) {
    case 'collection':
      if (await collectionNode(bus, ctx.env, ref.key)) break;
      if (await componentNode(bus, ctx.env, ref.key)) throw nonCollectionCannotHaveModel(ref.key);
      throw notFound('collection_not_found', 'Collection');
    case 'component':
      if (!(await componentNode(bus, ctx.env, ref.key))) throw notFound('component_not_found', 'Component');
      break;
  }
  return { env: ctx.env, schema_key: ref.key, schema_type: ref.type };
}
