import { randomUUID } from 'node:crypto';

/**
 * A new event id: an RFC 9562 version 7 UUID, whose first 48 bits are the Unix time in
 * milliseconds and the rest random (74 bits, from node's `randomUUID`). Ids made later sort
 * after earlier ones, so the event store's unique index on ids and the audit log's table keyed
 * by them grow at their end instead of at a random page for every event (docs/decisions/0270).
 */
export function newEventId(now: number = Date.now()): string {
  // randomUUID(): xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx; its version digit is replaced by 7.
  return `${timePrefix(now)}${randomUUID().slice(15)}`;
}

/** The millisecond of the last id and its first 15 characters (a create's two events share one; docs/decisions/0323). */
let prefixMs = Number.NaN;
let prefix = '';

function timePrefix(now: number): string {
  if (now !== prefixMs) {
    const time = now.toString(16).padStart(12, '0');
    prefix = `${time.slice(0, 8)}-${time.slice(8, 12)}-7`;
    prefixMs = now;
  }
  return prefix;
}
