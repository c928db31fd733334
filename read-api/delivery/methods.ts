import { DomainError } from '../../domain/errors.js';
import type { DeliveryRoute } from './routing.js';

/** 403 unless the connection's allowed_methods hold `method`. */
export function requireMethod(route: DeliveryRoute, method: string): void {
  if (!route.allowed_methods.includes(method)) {
    throw new DomainError('permission_denied', `The connection does not allow ${method}.`, { allowed_methods: [...route.allowed_methods] });
  }
}

/** Whether the connection serves content (`data`): only with get_one; get_many alone gives `_sys` only. */
export const servesData = (route: DeliveryRoute): boolean => route.allowed_methods.includes('get_one');
