import { checkpointTarget } from '../../commands/reactors/audit-checkpoints.js';
import type { EventStore } from '../../commands/ports.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { chainHashOfEvent, GENESIS } from './hash-chain.js';
import type { SigningKey } from './signing-key.js';

/** What the service knows of the signing key: its public half for GET /v1/audit/public-key/, or null without one. */
export type AuditKey = Pick<SigningKey, 'publicKeyPem' | 'id'> | null;

/**
 * With a signing key (AUDIT_SIGNING_KEY_FILE, `loadSigningKey`), the reactor that signs the chain's head (docs/decisions/0344),
 * run by a ProjectionRunner like the cascades; each checkpoint is also logged at info.
 */
export function checkpointSigner(
  config: Config,
  key: SigningKey | null,
  eventStore: EventStore,
  logger: Logger,
  wrap: (target: ProjectionTarget) => ProjectionTarget,
  log: (message: string, error?: unknown) => void,
): { key: AuditKey; target: ProjectionTarget | null; close(): Promise<void> } {
  if (!key) return { key: null, target: null, close: async () => {} };
  const ownPosition = config.eventStoreUrl ? (p: string) => /^\d{1,20}:\d{1,20}$/.test(p) : (p: string) => /^\d{20}$/.test(p);
  const target = checkpointTarget({
    store: eventStore,
    chain: chainHashOfEvent,
    genesis: GENESIS,
    sign: key.sign,
    key: key.id,
    everyEvents: config.audit.checkpointEvents,
    everySeconds: config.audit.checkpointSeconds,
    now: () => new Date().toISOString(),
    signed: ({ position, events, head_hash, signature }) => logger.info({ audit_checkpoint: { position, events, head_hash, signature } }, 'audit checkpoint signed'),
    log,
    ownPosition,
  });
  return { key: { publicKeyPem: key.publicKeyPem, id: key.id }, target: wrap(target), close: () => target.close() };
}
