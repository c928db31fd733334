import { DomainError, notFound } from '../domain/errors.js';
import type { Principal } from './principal.js';
import { param } from './query.js';

/**
 * `/organizations/...` is for the organization's users: a management API key works inside
 * its environment only (403), a user of another organization finds nothing (404), and
 * everything under `/organizations/{org}/` needs an organization administrator (403).
 */
export function userPrincipal(principal: Principal): Principal {
  if (principal.actor_type !== 'user') throw new DomainError('permission_denied', 'Management API keys are scoped to their environment; use a user token.');
  return principal;
}

export function organizationAdmin(request: { readonly params: unknown; readonly principal: Principal }): Principal {
  const principal = userPrincipal(request.principal);
  if (param(request, 'org') !== principal.organization) throw notFound('not_found', 'Organization');
  return adminOnly(principal);
}

/** 403 permission_denied unless the caller is an organization administrator. */
export function adminOnly(principal: Principal): Principal {
  if (!principal.is_admin) throw new DomainError('permission_denied', 'Organization admin access is required.');
  return principal;
}
