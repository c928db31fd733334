import { WrongExpectedRevision, type EventStore } from '../../commands/ports.js';
import type { Metrics } from './metrics.js';

/**
 * The event store with every append timed into `eventstore_append_duration_seconds`. A proxy,
 * so every other method (present or added later) reaches the store unchanged.
 */
export function timedEventStore(store: EventStore, metrics: Metrics): EventStore {
  const appendToStream: EventStore['appendToStream'] = async (stream, events, expected) => {
    const end = metrics.appendDuration.startTimer();
    try {
      const result = await store.appendToStream(stream, events, expected);
      end({ outcome: 'ok' });
      return result;
    } catch (error) {
      end({ outcome: error instanceof WrongExpectedRevision ? 'conflict' : 'error' });
      throw error;
    }
  };
  // Each method bound once: binding on every access made a function per `readStream` of every command (docs/decisions/0270).
  const bound = new Map<string | symbol, { readonly of: unknown; readonly fn: unknown }>();
  return new Proxy(store, {
    get(target, property) {
      if (property === 'appendToStream') return appendToStream;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const known = bound.get(property);
      if (known?.of === value) return known.fn;
      const fn = (value as (...args: unknown[]) => unknown).bind(target);
      bound.set(property, { of: value, fn });
      return fn;
    },
  });
}
