import { schema } from '../domain/schema/decider.js';
import type { FieldChanges } from '../domain/schema/field-commands.js';
import { joinPath } from '../domain/schema/field-tree.js';
import type { FieldDef } from '../domain/schema/fields.js';
import type { CommandBus, Handled } from './command-bus.js';
import type { CommandContext } from './context.js';
import type { SchemaRef } from '../domain/schema/events.js';
import { checkTargetCollections, nestedPin } from './field-facts.js';
import { schemaOwner } from './schema-owner.js';
import { streams } from './streams.js';

export type FieldInput = Omit<FieldDef, 'path' | 'pin'>;
type Result = Handled<unknown, unknown>;

/** Adds a field to a draft version; its path joins the parent's path and its key. */
export async function createField(bus: CommandBus, ctx: CommandContext, ref: SchemaRef, version: string, input: FieldInput): Promise<Result & { path: string }> {
  const owner = await schemaOwner(bus, ctx, ref);
  const path = joinPath(input.parent, input.key);
  if (input.type === 'reference' || input.type === 'relation' || input.type === 'array') await checkTargetCollections(bus, ctx, input.meta);
  const pin = input.type === 'nested' ? await nestedPin(bus, ctx, input.meta) : null;
  const field: FieldDef = pin ? { ...input, path, pin } : { ...input, path };
  const handled = await bus.handle(schema, streams.schema(ref.key), { type: 'CreateField', data: { ...owner, version, field } }, ctx.metadata);
  return { ...handled, path };
}

/** Changes a field of a draft version; a new key renames its path and its subtree's. */
export async function updateField(
  bus: CommandBus,
  ctx: CommandContext,
  ref: SchemaRef,
  version: string,
  path: string,
  changes: FieldChanges,
): Promise<Result & { path: string }> {
  const owner = await schemaOwner(bus, ctx, ref);
  const meta = changes.meta;
  if (meta) await checkTargetCollections(bus, ctx, meta);
  const pin = meta ? await nestedPin(bus, ctx, meta) : null;
  const handled = await bus.handle(schema, streams.schema(ref.key), { type: 'UpdateField', data: { ...owner, version, path, changes, pin } }, ctx.metadata);
  const [event] = handled.events;
  return { ...handled, path: event?.type === 'SchemaFieldUpdated' ? event.data.field.path : path };
}

/** Removes a field of a draft version with every field below it. */
export async function deleteField(bus: CommandBus, ctx: CommandContext, ref: SchemaRef, version: string, path: string): Promise<Result> {
  const owner = await schemaOwner(bus, ctx, ref);
  return bus.handle(schema, streams.schema(ref.key), { type: 'DeleteField', data: { ...owner, version, path } }, ctx.metadata);
}
