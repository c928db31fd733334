import { Router } from 'express';
import { DomainError } from '../../domain/errors.js';
import { principalOf } from '../../api/principal.js';
import type { AuditDeps } from './deps.js';

/**
 * `GET /v1/global-events/verify/`: recomputes the SHA-256 chain of the whole event log and
 * reports the first break (docs/decisions/0071); organization administrators only.
 */
export function verifyRouter(deps: AuditDeps): Router {
  const router = Router();
  router.get('/verify/', async (_req, res) => {
    if (!principalOf(res).is_admin) throw new DomainError('permission_denied', 'Organization admin access is required.');
    if (!deps.eventStore.verifyChain) {
      throw new DomainError('verification_unavailable', 'This event store keeps no hash chain.', null, 501);
    }
    res.json(await deps.eventStore.verifyChain());
  });
  return router;
}
