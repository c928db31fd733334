import { get, json, type ApiRoute } from '../../api/handler.js';
import { CHECKPOINT_STREAM, type SignedCheckpoint } from '../../domain/audit-checkpoint.js';
import { DomainError } from '../../domain/errors.js';
import { managementRestriction } from '../event-visibility.js';
import { envelope, pageParams } from '../pagination.js';
import type { AuditDeps } from './deps.js';

/**
 * `GET /v1/audit/checkpoints/`: the signed heads of the hash chain, oldest first, in the
 * management pagination envelope; organization administrators and management keys with full
 * access only. `GET /v1/audit/public-key/`: the key that checks them, for any management
 * caller; 404 public_key_not_found when none is configured (docs/decisions/0344).
 */
export function auditCheckpointsRoutes(deps: AuditDeps): ApiRoute[] {
  return [
    get('/checkpoints/', async (request) => {
      const { principal } = request;
      const full = principal.actor_type === 'user' ? principal.is_admin : (await managementRestriction(deps.readStore, principal)) === null;
      if (!full) throw new DomainError('permission_denied', 'Full access is required to read the audit checkpoints.');
      const page = pageParams(request.query);
      const stored = await deps.eventStore.readStream(CHECKPOINT_STREAM);
      const results = stored.slice(page.offset, page.offset + page.limit).map((event) => {
        const { position, events, head_hash, time, signature, key } = event.data as SignedCheckpoint;
        return { position, events, head_hash, time, signature, key };
      });
      return json(200, envelope(request, page, stored.length, results));
    }),
    get('/public-key/', async () => {
      if (!deps.auditKey) throw new DomainError('public_key_not_found', 'No audit signing key is configured (AUDIT_SIGNING_KEY_FILE).');
      return json(200, { algorithm: 'Ed25519', key: deps.auditKey.id, public_key: deps.auditKey.publicKeyPem });
    }),
  ];
}
