import { schema } from '../domain/schema/decider.js';
import type { FieldDef } from '../domain/schema/fields.js';
import type { CommandBus, Handled } from './command-bus.js';
import type { CommandContext } from './context.js';
import type { SchemaRef } from '../domain/schema/events.js';
import { schemaOwner } from './schema-owner.js';
import { streams } from './streams.js';

export type FieldInput = Omit<FieldDef, 'path'>;

/** Adds a field to a draft version; its path joins the parent's path and its key. */
export async function createField(
  bus: CommandBus,
  ctx: CommandContext,
  ref: SchemaRef,
  version: string,
  input: FieldInput,
): Promise<Handled<unknown, unknown> & { path: string }> {
  const owner = await schemaOwner(bus, ctx, ref);
  const path = input.parent === null ? input.key : `${input.parent}.${input.key}`;
  const handled = await bus.handle(schema, streams.schema(ref.key), {
    type: 'CreateField',
    data: { ...owner, version, field: { ...input, path } },
  }, ctx.metadata);
  return { ...handled, path };
}
