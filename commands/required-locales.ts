import type { CommandBus } from './command-bus.js';

/** The environment's default locale until the locales aggregate lands (docs/decisions/0027). */
const DEFAULT_LOCALE = 'en';

/**
 * The locale codes a localizable value must hold when a version is published: the
 * environment's default locale. The locales aggregate is built on another branch; until it
 * is merged every environment has exactly its initial default `en`. REWIRE HERE: load the
 * environment's locales stream with `bus` and return `[defaultLocale.code]`.
 */
export async function requiredLocales(_bus: CommandBus, _env: string): Promise<readonly string[]> {
  return [DEFAULT_LOCALE];
}
