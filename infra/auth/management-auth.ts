import type { Request, RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { secretHash } from '../../commands/key-pair.js';
import { DomainError } from '../../domain/errors.js';
import type { Doc, ReadStore } from '../../projections/ports.js';
import { AUTH_FAILURE_MESSAGES, parseCredentials, parseFailure, type AuthFailure } from '../../read-api/auth/credentials.js';
import { keyFromCredentials, rawBodyOf, signedPath } from '../../read-api/auth/key-lookup.js';
import { keyActor } from '../../api/views.js';
import type { UsedSignatures } from '../../read-api/auth/secure-signature.js';
import type { Principal } from '../../api/principal.js';
import type { EnvironmentStatus } from '../../read-api/environment-status.js';

export type TokenClaims = { readonly sub: string; readonly org: string };

const ISSUER = 'cms';

export function signManagementToken(secret: string, claims: TokenClaims): string {
  return jwt.sign({ org: claims.org }, secret, { algorithm: 'HS256', subject: claims.sub, issuer: ISSUER });
}

/**
 * The JWT secret as a key object, made once per secret: given the string, jsonwebtoken first
 * tries (and fails) to parse it as a public key on every request, which was 4% of the CPU time
 * of a resource create (docs/decisions/0100).
 */
let lastKey: { readonly secret: string; readonly key: KeyObject } | null = null;
function secretKey(secret: string): KeyObject {
  if (lastKey?.secret !== secret) lastKey = { secret, key: createSecretKey(Buffer.from(secret)) };
  return lastKey.key;
}

/** Tokens verified lately, at most this many (docs/decisions/0216). */
const VERIFIED_MAX = 1000;

/**
 * The claims of management JWTs already verified with one key: checking the signature again
 * (decode, HMAC, claims) was 2.6% of the main thread's time per create. Only tokens without
 * `exp` or `nbf` are kept (those this service signs), so what a later request is told never
 * depends on the time; the user is still read on every request.
 */
export class VerifiedTokens {
  private readonly claims = new Map<string, jwt.JwtPayload>();

  constructor(private readonly verify: (token: string) => jwt.JwtPayload | null) {}

  /** The token's claims, or null when it does not verify. */
  claimsOf(token: string): jwt.JwtPayload | null {
    const known = this.claims.get(token);
    if (known) return known;
    const claims = this.verify(token);
    if (claims && claims.exp === undefined && claims.nbf === undefined) {
      if (this.claims.size >= VERIFIED_MAX) this.claims.clear();
      this.claims.set(token, claims);
    }
    return claims;
  }
}

const failed = (why: AuthFailure = 'unknown_credential'): DomainError => new DomainError('authentication_failed', AUTH_FAILURE_MESSAGES[why]);

/** A management API key sent as `<public_key>:<secret_key>`, checked against the stored hash. */
async function keyPrincipal(store: ReadStore, token: string): Promise<Principal | null> {
  const at = token.indexOf(':');
  const publicKey = token.slice(0, at);
  const [doc] = await store.collection('api_keys').find({ public_key: publicKey, kind: 'management' }, { limit: 1 });
  if (!doc || doc.deleted_at) return null;
  const expected = Buffer.from(doc.secret_hash as string, 'hex');
  const given = Buffer.from(secretHash(token.slice(at + 1)), 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return principalOfKey(store, doc);
}

async function principalOfKey(store: ReadStore, doc: Doc): Promise<Principal | null> {
  const env = await store.collection('environments').get(doc.env as string);
  if (!env) return null;
  return { actor_type: 'apikey', actor: keyActor(doc), organization: env.organization as string, is_admin: false, environment: doc.env as string };
}

/** `Authorization: Secure <public_key>:<signature>` with a `Date` header (docs/decisions/0062). */
async function securePrincipal(store: ReadStore, req: Request, used: UsedSignatures): Promise<Principal | null> {
  const credentials = parseCredentials(req.get('authorization'));
  if (credentials === null || typeof credentials === 'string' || credentials.scheme !== 'secure') return null;
  const request = { path: signedPath(req.originalUrl), body: rawBodyOf(req), date: req.get('date'), now: Date.now() };
  const doc = await keyFromCredentials(store, 'management', credentials, request, used);
  return doc ? principalOfKey(store, doc) : null;
}

/**
 * `Authorization: Bearer <token>` where the token is a management JWT or a management API
 * key (`<public_key>:<secret_key>`; the `Simple` scheme is accepted for keys too), or a
 * management key's `Secure` signature.
 */
export function managementAuth(secret: string, store: ReadStore, used: UsedSignatures): RequestHandler {
  const verified = new VerifiedTokens((token) => managementTokenClaims(secret, token));
  return async (req, res, next) => {
    const credentials = parseCredentials(req.get('authorization'));
    const failure = parseFailure(credentials);
    if (failure !== null || credentials === null || typeof credentials === 'string') return next(failed(failure ?? 'bad_format'));
    if (credentials.scheme === 'secure') {
      const principal = await securePrincipal(store, req, used);
      if (!principal) return next(failed());
      res.locals.principal = principal;
      return next(res.locals.bodyError);
    }
    const token = credentials.scheme === 'simple' ? `${credentials.publicKey}:${credentials.secret}` : credentials.token;
    if (token.includes(':')) {
      const principal = await keyPrincipal(store, token);
      if (!principal) return next(failed());
      res.locals.principal = principal;
      return next();
    }
    const principal = await userPrincipal(store, verified.claimsOf(token));
    if (!principal) return next(failed());
    res.locals.principal = principal;
    return next();
  };
}

/** The claims of a management JWT this data directory's secret signed, or null. */
export function managementTokenClaims(secret: string, token: string): jwt.JwtPayload | null {
  try {
    const claims = jwt.verify(token, secretKey(secret), { algorithms: ['HS256'], issuer: ISSUER });
    return typeof claims === 'string' ? null : claims;
  } catch {
    return null;
  }
}

/** The user a verified management JWT names, as the caller of a request (null: no such user, or deleted, or moved to another organization). */
export async function userPrincipal(store: ReadStore, claims: jwt.JwtPayload | null): Promise<Principal | null> {
  if (!claims) return null;
  const user = claims.sub ? await store.collection('users').get(claims.sub) : null;
  if (!user || user.organization !== claims.org || user.deleted_at) return null;
  return {
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
    environment: null,
  };
}

/** `/v1/:env/...`: the environment must exist in the caller's organization, and be neither deleted nor disabled (`status`). */
export function environmentGuard(store: ReadStore, status: Pick<EnvironmentStatus, 'check'>): RequestHandler {
  return async (req, res, next) => {
    const env = (req.params as Record<string, string>).env ?? '';
    const doc = await store.collection('environments').get(env);
    const principal = res.locals.principal as Principal;
    const allowed = principal.environment === null || principal.environment === env;
    if (!doc || doc.organization !== principal.organization || !allowed) return next(new DomainError('environment_not_found', 'Environment not found.'));
    status.check(env);
    return next();
  };
}
