import { get, json, type ApiRoute } from '../../api/handler.js';
import { DomainError } from '../../domain/errors.js';
import { adminOnly } from '../../api/tenancy-access.js';
import type { AuditDeps } from './deps.js';

/**
 * `GET /v1/global-events/verify/`: recomputes the SHA-256 chain of the whole event log and
 * reports the first break (docs/decisions/0071); organization administrators only.
 */
export function verifyRoutes(deps: AuditDeps): ApiRoute[] {
  return [get('/verify/', async (request) => {
    adminOnly(request.principal);
    if (!deps.eventStore.verifyChain) {
      throw new DomainError('verification_unavailable', 'This event store keeps no hash chain.', null, 501);
    }
    return json(200, await deps.eventStore.verifyChain());
  })];
}
