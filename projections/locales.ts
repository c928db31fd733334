import { SEED_LOCALE } from '../domain/locales/events.js';
import type { ReadModelProjection } from './read-model-target.js';
import { patch, put, remove } from './read-model-target.js';

/** The locales of each environment, seeded with the default `en` when the environment is created. */

export const localeId = (env: string, code: string): string => `${env}:${code}`;

export const localesProjection: ReadModelProjection = {
  indexes: { locales: [['env', 'created_at']] },
  changes: (event) => {
    switch (event.type) {
      case 'EnvironmentCreated': {
        const env = event.data.key;
        return [put('locales', localeId(env, SEED_LOCALE.code), { ...SEED_LOCALE, env, created_at: event.data.created_at })];
      }
      case 'LocaleCreated':
        return [put('locales', localeId(event.data.env, event.data.code), { ...event.data })];
      case 'LocaleUpdated': {
        const { env, code, name, is_default } = event.data;
        return [patch('locales', localeId(env, code), { name, is_default })];
      }
      case 'LocaleDeleted':
        return [remove('locales', localeId(event.data.env, event.data.code))];
      default:
        return [];
    }
  },
};
