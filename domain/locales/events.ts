import type { Message } from '../decider.js';

export type LocaleFields = {
  readonly env: string;
  readonly code: string;
  readonly name: string;
  readonly is_default: boolean;
  readonly created_at: string;
};

/** The public fields a delete keeps as its audit snapshot (specification, Delete snapshots). */
export type LocaleSnapshot = Pick<LocaleFields, 'code' | 'name' | 'is_default'>;

export type LocaleCreated = Message<'LocaleCreated', LocaleFields>;
/** The locale after an update; also emitted for the previous default when the default moves. */
export type LocaleUpdated = Message<'LocaleUpdated', { readonly env: string } & LocaleSnapshot>;
export type LocaleDeleted = Message<'LocaleDeleted', { readonly env: string; readonly code: string; readonly snapshot: LocaleSnapshot }>;

export type LocalesEvent = LocaleCreated | LocaleUpdated | LocaleDeleted;

/** Every environment starts with this locale as its default (docs/decisions/0014). */
export const SEED_LOCALE: LocaleSnapshot = { code: 'en', name: 'English', is_default: true };
