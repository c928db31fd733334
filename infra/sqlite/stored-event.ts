import type { Position, StoredEvent } from '../../commands/ports.js';

/** A row of the events table as text: `data` and `metadata` are the stored JSON. */
export type EventText = { readonly id: string; readonly stream: string; readonly revision: number; readonly type: string; readonly data: string; readonly metadata: string };

/**
 * A stored row as the event it holds: the one parse of the log's rows, shared by the event store's
 * `$all` pages and the read side's previews (docs/decisions/0313), so both hand projections the same events.
 */
export const storedEvent = (row: EventText, position: Position): StoredEvent => ({
  id: row.id,
  stream: row.stream,
  revision: row.revision,
  position,
  type: row.type,
  data: JSON.parse(row.data),
  metadata: JSON.parse(row.metadata),
});

const OBJECT = Object.prototype;
const ARRAY = Array.prototype;

/**
 * A fresh copy of `value` equal to what `JSON.parse(JSON.stringify(value))` gives, or undefined
 * when the copy could differ from it, so the caller parses the text instead (docs/decisions/0328).
 * Kept to what a stringify and parse keep exactly: strings, booleans, null, finite numbers other
 * than -0 (stringified as 0), arrays without holes and plain objects (the prototype a parse
 * gives) of such values. Anything else is refused, not converted: undefined or function members
 * (dropped or nulled by a stringify), dates and other classes (`toJSON`, or a prototype a parse
 * would not give), a `__proto__` key (an assignment would set the prototype). Enumerable own
 * string keys in their own order, as a stringify takes them. The caller copies right after its
 * stringify, in the same synchronous step, so the copy holds what the text holds, and nothing
 * the caller's objects later become reaches whoever gets the copy.
 */
export function jsonCopy(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? value : undefined;
    case 'object': {
      if (value === null) return null;
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto === ARRAY) {
        const from = value as readonly unknown[];
        const copy: unknown[] = [];
        for (let i = 0; i < from.length; i++) {
          if (!(i in from)) return undefined;
          const item = jsonCopy(from[i]);
          if (item === undefined) return undefined;
          copy.push(item);
        }
        return copy;
      }
      if (proto !== OBJECT) return undefined;
      const from = value as Readonly<Record<string, unknown>>;
      const copy: Record<string, unknown> = {};
      for (const key in from) {
        if (key === '__proto__' || !Object.hasOwn(from, key)) return undefined;
        const item = jsonCopy(from[key]);
        if (item === undefined) return undefined;
        copy[key] = item;
      }
      return copy;
    }
    default:
      return undefined;
  }
}
