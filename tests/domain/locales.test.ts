import { expect } from 'chai';
import { locales, type CreateLocale } from '../../domain/locales/decider.js';
import type { LocaleCreated, LocalesEvent } from '../../domain/locales/events.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(locales);
const at = '2026-01-01T00:00:00.000Z';

const create = (code: string, extra: Partial<CreateLocale['data']> = {}): CreateLocale => ({
  type: 'CreateLocale',
  data: { env: 'e', code, name: code, is_default: false, created_at: at, quota: 5, ...extra },
});
const created = (command: CreateLocale): LocaleCreated => {
  const { quota: _quota, ...data } = command.data;
  return { type: 'LocaleCreated', data };
};
const update = (code: string, changes: { name?: string; is_default?: boolean }) => ({ type: 'UpdateLocale', data: { env: 'e', code, ...changes } }) as const;
const remove = (code: string) => ({ type: 'DeleteLocale', data: { env: 'e', code } }) as const;
const stateAfter = (events: readonly LocalesEvent[]) => events.reduce(locales.evolve, locales.initialState());

describe('locales decider', () => {
  const de = create('de');

  it('starts every environment with en (English) as the default', () => {
    expect(locales.initialState()).to.deep.equal({ byCode: { en: { code: 'en', name: 'English', is_default: true } } });
  });

  it('creates a locale that is not the default', () => {
    spec.given([]).when(de).then([created(de)]);
  });

  it('moves the default to a locale created as the default', () => {
    const fr = create('fr', { is_default: true });
    spec.given([]).when(fr).then([created(fr), { type: 'LocaleUpdated', data: { env: 'e', code: 'en', name: 'English', is_default: false } }]);
  });

  it('refuses a code used in the environment with validation_error, the seeded en included', () => {
    spec.given([created(de)]).when(create('de')).thenThrows('validation_error', { code: ['must be unique in the environment'] });
    spec.given([]).when(create('en')).thenThrows('validation_error');
  });

  it('counts en toward the quota: plan_limit_exceeded for locales with an upgrade URL', () => {
    spec.given([created(de)]).when(create('fr', { quota: 2 })).thenThrows('plan_limit_exceeded', { entity: 'locales', current: 2, limit: 2, upgrade_url: '/organizations/plan/' });
    spec.given([]).when(create('fr', { quota: 1 })).thenThrows('plan_limit_exceeded', { entity: 'locales', current: 1, limit: 1 });
    spec.given([]).when(create('fr', { quota: 2 })).thenReturns();
  });

  it('frees quota and code again on delete', () => {
    const gone = [created(de), { type: 'LocaleDeleted', data: { env: 'e', code: 'de', snapshot: { code: 'de', name: 'de', is_default: false } } } as const];
    spec.given(gone).when(create('de', { quota: 2 })).thenReturns();
  });

  it('renames a locale, keeping is_default when left out', () => {
    spec.given([created(de)]).when(update('de', { name: 'Deutsch' })).then([{ type: 'LocaleUpdated', data: { env: 'e', code: 'de', name: 'Deutsch', is_default: false } }]);
    spec.given([]).when(update('en', { name: 'English (US)' })).then([{ type: 'LocaleUpdated', data: { env: 'e', code: 'en', name: 'English (US)', is_default: true } }]);
  });

  it('moves the default when another locale is made the default', () => {
    const events = spec.given([created(de)]).when(update('de', { is_default: true })).thenReturns();
    expect(events).to.deep.equal([
      { type: 'LocaleUpdated', data: { env: 'e', code: 'de', name: 'de', is_default: true } },
      { type: 'LocaleUpdated', data: { env: 'e', code: 'en', name: 'English', is_default: false } },
    ]);
    const state = stateAfter([created(de), ...events]);
    expect(Object.values(state.byCode).filter((l) => l.is_default).map((l) => l.code)).to.deep.equal(['de']);
  });

  it('keeps the default when the default is set again', () => {
    spec.given([]).when(update('en', { is_default: true })).then([{ type: 'LocaleUpdated', data: { env: 'e', code: 'en', name: 'English', is_default: true } }]);
  });

  it('refuses to un-default the default directly with validation_error', () => {
    spec.given([created(de)]).when(update('en', { is_default: false })).thenThrows('validation_error', { is_default: ['make another locale the default instead'] });
  });

  it('deletes a locale with its snapshot', () => {
    spec.given([created(de)]).when(remove('de')).then([{ type: 'LocaleDeleted', data: { env: 'e', code: 'de', snapshot: { code: 'de', name: 'de', is_default: false } } }]);
  });

  it('refuses to delete the default locale with validation_error', () => {
    spec.given([created(de)]).when(remove('en')).thenThrows('validation_error', { code: ['is the default locale'] });
  });

  it('deletes en once another locale is the default', () => {
    const moved = spec.given([created(de)]).when(update('de', { is_default: true })).thenReturns();
    spec.given([created(de), ...moved]).when(remove('en')).thenReturns();
  });

  it('refuses an unknown code with not_found', () => {
    spec.given([]).when(update('xx', { name: 'x' })).thenThrows('not_found');
    spec.given([]).when(remove('xx')).thenThrows('not_found');
  });
});
