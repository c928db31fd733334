import { locales } from '../domain/locales/decider.js';
import type { CommandBus, Handled } from './command-bus.js';
import { planLimits, type CommandContext } from './context.js';
import { streams } from './streams.js';

type Result = Handled<unknown, unknown>;

export type LocaleInput = { readonly code: string; readonly name: string; readonly is_default: boolean };

export async function createLocale(bus: CommandBus, ctx: CommandContext, input: LocaleInput): Promise<Result> {
  const limits = await planLimits(bus, ctx.env);
  return bus.handle(locales, streams.locales(ctx.env), {
    type: 'CreateLocale',
    data: { ...input, env: ctx.env, created_at: ctx.now, quota: limits.locales },
  }, ctx.metadata);
}

export const updateLocale = (bus: CommandBus, ctx: CommandContext, code: string, changes: { name?: string; is_default?: boolean }): Promise<Result> =>
  bus.handle(locales, streams.locales(ctx.env), { type: 'UpdateLocale', data: { ...changes, env: ctx.env, code } }, ctx.metadata);

export const deleteLocale = (bus: CommandBus, ctx: CommandContext, code: string): Promise<Result> =>
  bus.handle(locales, streams.locales(ctx.env), { type: 'DeleteLocale', data: { env: ctx.env, code } }, ctx.metadata);
