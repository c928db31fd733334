import { locales } from '../domain/locales/decider.js';
import type { CommandBus } from './command-bus.js';
import { streams } from './streams.js';

/**
 * The locale codes a localizable value must hold when a version is published: the
 * environment's default locale, read from the locales stream (docs/decisions/0027).
 */
export async function requiredLocales(bus: CommandBus, env: string): Promise<readonly string[]> {
  const { state } = await bus.load(locales, streams.locales(env));
  return Object.values(state.byCode)
    .filter((locale) => locale.is_default)
    .map((locale) => locale.code);
}
