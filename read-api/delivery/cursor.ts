import { DomainError } from '../../domain/errors.js';
import type { CursorKey } from '../../projections/ports.js';

/** Delivery cursors: the (created_at, key) of the item a page continues from, opaque to clients. */
export const encodeCursor = (key: CursorKey): string => Buffer.from(JSON.stringify([key.created_at, key.key])).toString('base64url');

export function decodeCursor(value: string, name: string): CursorKey {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((p) => typeof p === 'string')) {
      return { created_at: parsed[0] as string, key: parsed[1] as string };
    }
  } catch {
    // falls through to the 422 below
  }
  throw new DomainError('validation_error', `Invalid ${name} cursor.`, { [name]: ['is not a cursor of this list'] });
}
