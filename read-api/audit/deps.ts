import type { EventStore } from '../../commands/ports.js';
import type { ReadStore } from '../../projections/ports.js';

/** The auditors' endpoints read the event store itself: replay, verify, time travel (docs/decisions/0070). */
export type AuditDeps = {
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly log: (message: string, error: unknown) => void;
};
