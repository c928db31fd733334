import { DomainError } from '../errors.js';
import { MAX_PAYLOAD_BYTES } from './events.js';

/** The outcome of validating a payload against the collection's published schema, done by the handler. */
export type Validation = {
  /** The published schema version, or null when the collection has none. */
  readonly schema_version: string | null;
  /** Schema errors; null when the data was not validated. */
  readonly errors: readonly { readonly path: string; readonly message: string }[] | null;
  /** Localizable fields sent as a non-object (checked before the schema). */
  readonly localizable: readonly string[];
};

/** Whether the payload is valid: null when it was not validated. */
export const isValid = (v: Validation): boolean | null => (v.errors === null ? null : v.errors.length === 0 && v.localizable.length === 0);

export function refuseOversize(size: number): void {
  if (size > MAX_PAYLOAD_BYTES) throw new DomainError('json_size_exceeded', 'The payload is larger than 1 MB.', { size, limit: MAX_PAYLOAD_BYTES });
}

/** Refuses data that breaks the content rules; `code` names a schema failure (create and upsert differ). */
export function refuseInvalid(v: Validation, code: 'validation_error' | 'data_validation_error'): void {
  if (v.localizable.length > 0) {
    throw new DomainError('localizable_data_should_be_object', 'Localizable fields take an object keyed by locale code.', { fields: [...v.localizable] });
  }
  if (v.errors && v.errors.length > 0) throw new DomainError(code, 'The data does not follow the schema.', { errors: v.errors });
}

export function refuseWithoutSchema(v: Validation, code: 'validation_error' | 'data_validation_error'): void {
  if (v.schema_version === null) throw new DomainError(code, 'The collection has no published schema version.', { data: ['no published schema'] });
}

/** The mode rules shared by create and upsert. */
export function refuseMode(mode: 'instant' | 'draft', validate_data: boolean, v: Validation, code: 'validation_error' | 'data_validation_error'): void {
  if (!validate_data && mode !== 'draft') {
    throw new DomainError('validation_error', 'validate_data=false is only allowed with mode=draft.', { validate_data: ['requires mode=draft'] });
  }
  if (mode === 'instant') refuseWithoutSchema(v, code);
  if (validate_data) refuseInvalid(v, code);
}
