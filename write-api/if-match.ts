import { KEY_PATTERN } from '../commands/keys.js';
import { DomainError } from '../domain/errors.js';

const invalid = (reason: string): DomainError =>
  new DomainError('invalid_revision_precondition', `If-Match ${reason}.`, { 'If-Match': [reason] });

/**
 * The revision key an upsert expects to be current (the `If-Match` header's value), or null without the header. Quotes are
 * stripped; a weak validator, `*`, a list or anything not shaped like a revision key is 422.
 */
export function ifMatch(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const value = raw.trim();
  if (value.startsWith('W/')) throw invalid('does not support weak validators');
  const key = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  if (key === '*') throw invalid('does not support *');
  if (!KEY_PATTERN.test(key)) throw invalid('must be a revision key');
  return key;
}
