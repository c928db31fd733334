import type { RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { DomainError } from '../../domain/errors.js';
import type { ReadStore } from '../../projections/ports.js';
import type { Principal } from '../../read-api/principal.js';

export type TokenClaims = { readonly sub: string; readonly org: string };

const ISSUER = 'cms';

export function signManagementToken(secret: string, claims: TokenClaims): string {
  return jwt.sign({ org: claims.org }, secret, { algorithm: 'HS256', subject: claims.sub, issuer: ISSUER });
}

const failed = (): DomainError => new DomainError('authentication_failed', 'Authentication credentials were not provided or are invalid.');

/** `Authorization: Bearer <JWT>`: verifies the token and loads the user as the request's principal. */
export function managementAuth(secret: string, store: ReadStore): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) return next(failed());
    let claims: jwt.JwtPayload;
    try {
      const verified = jwt.verify(match[1], secret, { algorithms: ['HS256'], issuer: ISSUER });
      if (typeof verified === 'string') return next(failed());
      claims = verified;
    } catch {
      return next(failed());
    }
    const user = claims.sub ? await store.collection('users').get(claims.sub) : null;
    if (!user || user.organization !== claims.org || user.deleted_at) return next(failed());
    const principal: Principal = {
      actor_type: 'user',
      actor: {
        key: user.key,
        email: user.email,
        first_name: user.first_name,
        last_name: user.last_name,
        full_name: user.full_name,
        deleted_at: user.deleted_at ?? null,
      },
      organization: user.organization as string,
      is_admin: user.is_admin === true,
    };
    res.locals.principal = principal;
    return next();
  };
}

/** `/v1/:env/...`: the environment must exist in the caller's organization. */
export function environmentGuard(store: ReadStore): RequestHandler {
  return async (req, res, next) => {
    const env = (req.params as Record<string, string>).env ?? '';
    const doc = await store.collection('environments').get(env);
    const principal = res.locals.principal as Principal;
    if (!doc || doc.organization !== principal.organization) return next(new DomainError('environment_not_found', 'Environment not found.'));
    return next();
  };
}
