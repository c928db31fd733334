/**
 * Plain-object records keyed by names that come from requests and events (collection and
 * version keys, locale codes, folders, field keys). Lookups see own entries only, so
 * `constructor`, `toString` or `__proto__` never find what Object.prototype holds
 * (docs/decisions/0030).
 */

/** The entry under `key`, or undefined when the record does not hold it itself. */
export const own = <T>(record: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** Whether the record holds `key` itself (the `in` operator also sees inherited names). */
export const has = (record: object, key: string): boolean => Object.hasOwn(record, key);
