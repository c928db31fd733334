import { schema } from '../domain/schema/decider.js';
import type { CommandBus, Handled } from './command-bus.js';
import type { CommandContext } from './context.js';
import { newKey } from './keys.js';
import { requiredLocales } from './required-locales.js';
import type { SchemaRef } from '../domain/schema/events.js';
import { schemaOwner } from './schema-owner.js';
import { streams } from './streams.js';

type Result = Handled<unknown, unknown>;

export async function createVersion(
  bus: CommandBus,
  ctx: CommandContext,
  ref: SchemaRef,
  input: { name: string; description: string; copy_from: string | null },
): Promise<Result & { key: string }> {
  const owner = await schemaOwner(bus, ctx, ref);
  const key = newKey();
  const handled = await bus.handle(schema, streams.schema(ref.key), {
    type: 'CreateVersion',
    data: { ...owner, ...input, key, created_at: ctx.now },
  }, ctx.metadata);
  return { ...handled, key };
}

export async function publishVersion(bus: CommandBus, ctx: CommandContext, ref: SchemaRef, version: string): Promise<Result> {
  const owner = await schemaOwner(bus, ctx, ref);
  const locales = await requiredLocales(bus, ctx.env);
  return bus.handle(schema, streams.schema(ref.key), {
    type: 'PublishVersion',
    data: { ...owner, version, published_at: ctx.now, locales },
  }, ctx.metadata);
}
