import { components, type DeleteComponent } from '../domain/components/decider.js';
import { own } from '../domain/records.js';
import { schema } from '../domain/schema/decider.js';
import { nestedSchemas } from '../domain/schema/nested-schemas.js';
import type { CommandBus, Handled } from './command-bus.js';
import type { CommandContext } from './context.js';
import { newKey } from './keys.js';
import { streams } from './streams.js';

type Result = Handled<unknown, unknown>;

export async function createComponent(
  bus: CommandBus,
  ctx: CommandContext,
  input: { name: string; description: string },
): Promise<Result & { key: string }> {
  const key = newKey();
  const handled = await bus.handle(components, streams.components(ctx.env), {
    type: 'CreateComponent',
    data: { ...input, env: ctx.env, key, created_at: ctx.now },
  }, ctx.metadata);
  return { ...handled, key };
}

export function updateComponent(bus: CommandBus, ctx: CommandContext, key: string, input: { name?: string; description?: string }): Promise<Result> {
  return bus.handle(components, streams.components(ctx.env), { type: 'UpdateComponent', data: { ...input, env: ctx.env, key } }, ctx.metadata);
}

/** Deletes a component; its snapshot names the published version and the components that version nests. */
export function deleteComponent(bus: CommandBus, ctx: CommandContext, key: string): Promise<Result> {
  return bus.handle(components, streams.components(ctx.env), async (): Promise<DeleteComponent> => {
    const { state } = await bus.load(schema, streams.schema(key));
    const published = state.published === null ? undefined : own(state.versions, state.published);
    return {
      type: 'DeleteComponent',
      data: { env: ctx.env, key, current_version: published?.key ?? null, nested_schemas: nestedSchemas(published?.fields ?? []) },
    };
  }, ctx.metadata);
}

/** Whether a component exists in an environment, from its owning stream. */
export async function componentNode(bus: CommandBus, env: string, key: string) {
  const { state } = await bus.load(components, streams.components(env));
  return own(state.byKey, key) ?? null;
}
