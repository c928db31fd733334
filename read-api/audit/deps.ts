import type { EventStore } from '../../commands/ports.js';
import type { ReadStore } from '../../projections/ports.js';

/** The auditors' endpoints read the event store itself: replay, verify, time travel (docs/decisions/0070). */
export type AuditDeps = {
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  readonly log: (message: string, error: unknown) => void;
  /** The public half of the audit checkpoints' signing key, or null when none is configured (docs/decisions/0344). */
  readonly auditKey?: { readonly publicKeyPem: string; readonly id: string } | null;
};
