import type { Request, Response } from 'express';
import { DomainError, notFound } from '../domain/errors.js';
import { principalOf, type Principal } from './principal.js';
import { param } from './query.js';

/**
 * `/organizations/...` is for the organization's users: a management API key works inside
 * its environment only (403), a user of another organization finds nothing (404), and
 * everything under `/organizations/{org}/` needs an organization administrator (403).
 */
export function userPrincipal(res: Response): Principal {
  const principal = principalOf(res);
  if (principal.actor_type !== 'user') throw new DomainError('permission_denied', 'Management API keys are scoped to their environment; use a user token.');
  return principal;
}

export function organizationAdmin(req: Request, res: Response): Principal {
  const principal = userPrincipal(res);
  if (param(req, 'org') !== principal.organization) throw notFound('not_found', 'Organization');
  if (!principal.is_admin) throw new DomainError('permission_denied', 'Organization admin access is required.');
  return principal;
}
