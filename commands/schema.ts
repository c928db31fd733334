import { notFound } from '../domain/errors.js';
import { schema } from '../domain/schema/decider.js';
import type { SchemaOwner } from '../domain/schema/events.js';
import type { FieldDef } from '../domain/schema/fields.js';
import type { CommandBus, Handled } from './command-bus.js';
import { collectionNode } from './collections.js';
import type { CommandContext } from './context.js';
import { newKey } from './keys.js';
import { streams } from './streams.js';

type Result = Handled<unknown, unknown>;

async function ownerOf(bus: CommandBus, ctx: CommandContext, collection: string): Promise<SchemaOwner> {
  if (!(await collectionNode(bus, ctx.env, collection))) throw notFound('collection_not_found', 'Collection');
  return { env: ctx.env, schema_key: collection, schema_type: 'collection' };
}

export async function createVersion(
  bus: CommandBus,
  ctx: CommandContext,
  collection: string,
  input: { name: string; description: string; copy_from: string | null },
): Promise<Result & { key: string }> {
  const owner = await ownerOf(bus, ctx, collection);
  const key = newKey();
  const handled = await bus.handle(schema, streams.schema(collection), {
    type: 'CreateVersion',
    data: { ...owner, ...input, key, created_at: ctx.now },
  }, ctx.metadata);
  return { ...handled, key };
}

export type FieldInput = Omit<FieldDef, 'path'>;

export async function createField(bus: CommandBus, ctx: CommandContext, collection: string, version: string, input: FieldInput): Promise<Result & { path: string }> {
  const owner = await ownerOf(bus, ctx, collection);
  const path = input.parent === null ? input.key : `${input.parent}.${input.key}`;
  const handled = await bus.handle(schema, streams.schema(collection), {
    type: 'CreateField',
    data: { ...owner, version, field: { ...input, path } },
  }, ctx.metadata);
  return { ...handled, path };
}

export async function publishVersion(bus: CommandBus, ctx: CommandContext, collection: string, version: string): Promise<Result> {
  const owner = await ownerOf(bus, ctx, collection);
  return bus.handle(schema, streams.schema(collection), {
    type: 'PublishVersion',
    data: { ...owner, version, published_at: ctx.now },
  }, ctx.metadata);
}
