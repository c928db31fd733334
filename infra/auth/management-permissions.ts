import type { RequestHandler } from 'express';
import { DomainError } from '../../domain/errors.js';
import { managementAllows, managementNeed } from '../../domain/roles/management-scope.js';
import type { ReadStore } from '../../projections/ports.js';
import type { Principal } from '../../api/principal.js';

const denied = (): DomainError => new DomainError('permission_denied', 'You do not have permission to perform this action.');

/**
 * `/v1/:env/...` for management API keys with a role: 403 permission_denied unless the
 * role has full access or a permission for the request's action (docs/decisions/0061).
 * Users and keys without a role are not restricted here.
 */
export function managementPermissions(store: ReadStore): RequestHandler {
  return async (req, res, next) => {
    const principal = res.locals.principal as Principal;
    const roleKey = principal.actor_type === 'apikey' ? principal.actor.role : null;
    if (typeof roleKey !== 'string') return next();
    const role = await store.collection('roles').get(roleKey);
    if (!role || role.kind !== 'management' || role.env !== principal.environment) return next(denied());
    if (role.full_access === true) return next();
    const key = typeof req.query.key === 'string' ? req.query.key : undefined;
    const need = managementNeed(req.method, req.path.split('/').filter(Boolean), key);
    if (need === null) return next();
    const permissions = await store.collection('role_permissions').find({ role: roleKey });
    const fields = permissions.map((p) => ({ content_type: p.content_type as string, actions: p.actions as string[], all_objects: p.all_objects === true, objects: (p.objects as string[]) ?? [] }));
    return managementAllows(fields, need) ? next() : next(denied());
  };
}
