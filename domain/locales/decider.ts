import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { planLimitExceeded } from '../plan.js';
import { has, own } from '../records.js';
import { SEED_LOCALE, type LocaleFields, type LocaleSnapshot, type LocalesEvent } from './events.js';

/** The locales of one environment: owns code uniqueness, the one default and the quota. */

export type CreateLocale = Message<'CreateLocale', LocaleFields & { readonly quota: number }>;
/** `name` or `is_default` left out (undefined) keep their values. */
export type UpdateLocale = Message<
  'UpdateLocale',
  { readonly env: string; readonly code: string; readonly name?: string; readonly is_default?: boolean }
>;
export type DeleteLocale = Message<'DeleteLocale', { readonly env: string; readonly code: string }>;
export type LocalesCommand = CreateLocale | UpdateLocale | DeleteLocale;

export type LocalesState = { readonly byCode: Readonly<Record<string, LocaleSnapshot>> };

const localeOf = (state: LocalesState, code: string): LocaleSnapshot => {
  const locale = own(state.byCode, code);
  if (!locale) throw notFound('not_found', 'Locale');
  return locale;
};

/** The events that take the default away from the current default locale (if another one has it). */
function undefault(state: LocalesState, env: string, except: string): LocalesEvent[] {
  return Object.values(state.byCode)
    .filter((l) => l.is_default && l.code !== except)
    .map((l) => ({ type: 'LocaleUpdated', data: { env, code: l.code, name: l.name, is_default: false } }));
}

function create({ data }: CreateLocale, state: LocalesState): LocalesEvent[] {
  const { quota, ...locale } = data;
  if (has(state.byCode, locale.code)) {
    throw new DomainError('validation_error', 'A locale with this code exists in the environment.', { code: ['must be unique in the environment'] });
  }
  const count = Object.keys(state.byCode).length;
  if (count >= quota) throw planLimitExceeded('locales', count, quota, true);
  return [{ type: 'LocaleCreated', data: locale }, ...(locale.is_default ? undefault(state, locale.env, locale.code) : [])];
}

function update({ data }: UpdateLocale, state: LocalesState): LocalesEvent[] {
  const current = localeOf(state, data.code);
  if (current.is_default && data.is_default === false) {
    throw new DomainError('validation_error', 'The default locale stays the default until another locale is made the default.', {
      is_default: ['make another locale the default instead'],
    });
  }
  const next: LocaleSnapshot = { code: current.code, name: data.name ?? current.name, is_default: data.is_default ?? current.is_default };
  const moved = next.is_default && !current.is_default ? undefault(state, data.env, next.code) : [];
  return [{ type: 'LocaleUpdated', data: { env: data.env, ...next } }, ...moved];
}

function remove({ data }: DeleteLocale, state: LocalesState): LocalesEvent[] {
  const locale = localeOf(state, data.code);
  if (locale.is_default) {
    throw new DomainError('validation_error', 'The default locale cannot be deleted; make another locale the default first.', {
      code: ['is the default locale'],
    });
  }
  return [{ type: 'LocaleDeleted', data: { env: data.env, code: locale.code, snapshot: { ...locale } } }];
}

function evolve(state: LocalesState, event: LocalesEvent): LocalesState {
  switch (event.type) {
    case 'LocaleCreated':
    case 'LocaleUpdated': {
      const { code, name, is_default } = event.data;
      return { byCode: { ...state.byCode, [code]: { code, name, is_default } } };
    }
    case 'LocaleDeleted': {
      const { [event.data.code]: _gone, ...byCode } = state.byCode;
      return { byCode };
    }
  }
}

export const locales: Decider<LocalesState, LocalesCommand, LocalesEvent> = {
  /** Every environment starts with `en` as its default; it counts toward the quota. */
  initialState: () => ({ byCode: { [SEED_LOCALE.code]: { ...SEED_LOCALE } } }),
  evolve,
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateLocale':
        return create(command, state);
      case 'UpdateLocale':
        return update(command, state);
      case 'DeleteLocale':
        return remove(command, state);
    }
  },
};
