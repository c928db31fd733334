import { randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../domain/errors.js';
import { deliveryAccess, type DeliveryAction } from '../../domain/roles/grants.js';
import type { PermissionFields } from '../../domain/roles/events.js';
import type { Doc, ReadStore } from '../../projections/ports.js';
import { AUTH_FAILURE_MESSAGES, parseCredentials, type Credentials } from '../auth/credentials.js';
import { findKey, lookupId, provesOnce, signedPath } from '../auth/key-lookup.js';
import type { UsedSignatures } from '../auth/secure-signature.js';
import type { DeliveryAsk } from '../../api/delivery-ask.js';
import type { DeliveryApi } from './routing.js';

export const WWW_AUTHENTICATE = 'Simple realm="delivery-api", Secure realm="delivery-api"';

const CACHE_SIZE = 10_000;

/**
 * The header on which the agent endpoint replays a call as the caller it authenticated
 * (docs/decisions/0120): a per-process secret and the key. A Secure signature covers the
 * `_mcp` request it was made for, so the replay cannot carry the caller's own header.
 */
export const FORWARD_HEADER = 'x-delivery-forwarded-key';

/** Event types after which cached keys and roles are dropped. */
export const CREDENTIAL_EVENTS: ReadonlySet<string> = new Set([
  'ApiKeyUpdated',
  'ApiKeyDeleted',
  'BearerTokenIssued',
  'BearerTokenRevoked',
  'RoleUpdated',
  'RoleDeleted',
  'PermissionCreated',
  'PermissionUpdated',
  'PermissionDeleted',
]);

/** An authenticated delivery key with its role's permissions (role null: unrestricted; 'missing': its role was deleted). */
export type DeliveryCaller = { readonly key: Doc; readonly role: { readonly permissions: readonly PermissionFields[] } | null | 'missing' };

/** 401 authentication_required: the delivery server's write step adds the challenge (WWW_AUTHENTICATE) every delivery 401 carries. */
export function authenticationRequired(message = AUTH_FAILURE_MESSAGES.unknown_credential): DomainError {
  return new DomainError('authentication_required', message);
}

/**
 * Delivery credentials (docs/decisions/0062): Secure, Simple and Bearer resolve to a
 * delivery key of the request's environment; the key's role decides which APIs,
 * actions and collections it reaches.
 */
export class DeliveryAuth {
  /** Keys found, with their roles, by lookup id; emptied by forget() on every key or role change. */
  private readonly cache = new Map<string, DeliveryCaller>();
  private generation = 0;
  /** Callers the agent endpoint authenticated, by key, for its replayed calls; emptied with the cache. */
  private readonly forwarded = new Map<string, DeliveryCaller>();
  private readonly forwardSecret = Buffer.from(randomBytes(32).toString('base64url'));

  constructor(
    private readonly store: ReadStore,
    private readonly usedSignatures: UsedSignatures,
  ) {}

  /** Drops what is cached: the read side applied a key or role change (CREDENTIAL_EVENTS). */
  forget(): void {
    this.generation += 1;
    this.cache.clear();
    this.forwarded.clear();
  }

  /** Headers that let a call replayed on this process act as `caller` (none for an anonymous caller). */
  forwardHeaders(caller: DeliveryCaller | null): Record<string, string> {
    if (caller === null) return {};
    const key = String(caller.key.key);
    if (!this.forwarded.has(key) && this.forwarded.size >= CACHE_SIZE) this.forwarded.delete(this.forwarded.keys().next().value as string);
    this.forwarded.set(key, caller);
    return { [FORWARD_HEADER]: `${this.forwardSecret.toString()}.${key}` };
  }

  /** The caller a replayed call names, when it carries this process's secret. */
  private forwardedCaller(value: string): DeliveryCaller | null {
    const at = value.indexOf('.');
    const secret = Buffer.from(value.slice(0, Math.max(at, 0)));
    if (at < 0 || secret.length !== this.forwardSecret.length || !timingSafeEqual(secret, this.forwardSecret)) return null;
    return this.forwarded.get(value.slice(at + 1)) ?? null;
  }

  /**
   * The caller, or null for an anonymous request to a public API. Refuses with 401
   * missing credentials on an auth-required API, and everywhere invalid ones, a key of
   * another environment and a key not authorized for this API.
   */
  async authenticate(ask: DeliveryAsk, env: string, api: DeliveryApi): Promise<DeliveryCaller | null> {
    const caller = await this.callerOf(ask, env, api);
    // The parse step kept the body's error until the caller was known; an anonymous write is
    // refused with 401 by authorize() before its body matters.
    if (caller !== null && ask.bodyError) throw ask.bodyError;
    return caller;
  }

  private async callerOf(ask: DeliveryAsk, env: string, api: DeliveryApi): Promise<DeliveryCaller | null> {
    const forwarded = ask.header(FORWARD_HEADER);
    if (forwarded !== undefined) {
      const caller = this.forwardedCaller(forwarded);
      if (!caller || caller.key.env !== env) throw authenticationRequired();
      return this.admit(api, caller);
    }
    const credentials = parseCredentials(ask.header('authorization'));
    if (credentials === null) {
      if (api.is_auth_required) throw authenticationRequired(AUTH_FAILURE_MESSAGES.missing);
      return null;
    }
    if (typeof credentials === 'string') throw authenticationRequired(AUTH_FAILURE_MESSAGES[credentials]);
    const request = { path: signedPath(ask.url), body: ask.rawBody, date: ask.header('date'), now: Date.now() };
    const caller = await this.lookup(credentials);
    if (!caller || !(await provesOnce(caller.key, credentials, request, this.usedSignatures)) || caller.key.env !== env) throw authenticationRequired();
    return this.admit(api, caller);
  }

  /** An authenticated key: refused on an API its role does not reach. */
  private admit(api: DeliveryApi, caller: DeliveryCaller): DeliveryCaller {
    if (deliveryAccess(caller.role, api.key, null, 'read') === 'not_authorized') throw authenticationRequired('The key is not authorized for this API.');
    return caller;
  }

  /**
   * Whether the caller reads every collection the API connects (anonymous callers read what
   * the API serves): then no answer of the API depends on who reads it. Answers to any other
   * key leave out what its role does not reach (populate, `_router`), so they are neither
   * remembered nor served from memory (docs/decisions/0161).
   */
  readsEverything(caller: DeliveryCaller | null, api: DeliveryApi): boolean {
    if (caller === null || caller.role === null) return true;
    const role = caller.role;
    // Without a collections permission the role treats every collection of the API alike.
    if (role !== 'missing' && !role.permissions.some((p) => p.content_type === 'collections')) return deliveryAccess(role, api.key, null, 'read') === 'granted';
    return api.routes.every((route) => deliveryAccess(role, api.key, route.folder, 'read') === 'granted');
  }

  /** Whether the caller's role lets it `action` on the collection (anonymous callers only read). */
  may(caller: DeliveryCaller | null, api: DeliveryApi, folder: string, action: DeliveryAction): boolean {
    if (caller === null) return action === 'read';
    return deliveryAccess(caller.role, api.key, folder, action) === 'granted';
  }

  /** Whether the caller may do `action` on the collection: anonymous callers only read (401 otherwise), keys per their role (403 access_denied). */
  authorize(caller: DeliveryCaller | null, api: DeliveryApi, folder: string, action: DeliveryAction): void {
    if (caller === null) {
      if (action !== 'read') throw authenticationRequired('Writes need an authenticated key.');
      return;
    }
    const access = deliveryAccess(caller.role, api.key, folder, action);
    if (access === 'not_authorized') throw authenticationRequired('The key is not authorized for this API.');
    if (access === 'denied') throw new DomainError('access_denied', `The key may not ${action} here.`, { action });
  }

  /** The key the credentials name with its role, from the cache or the read model (a change read meanwhile is not cached). */
  private async lookup(credentials: Credentials): Promise<DeliveryCaller | null> {
    const id = lookupId(credentials);
    const cached = this.cache.get(id);
    if (cached) return cached;
    const generation = this.generation;
    const key = await findKey(this.store, 'delivery', credentials);
    if (!key) return null;
    const caller: DeliveryCaller = { key, role: await this.roleOf(key) };
    if (generation === this.generation) {
      if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(id, caller);
    }
    return caller;
  }

  private async roleOf(key: Doc): Promise<DeliveryCaller['role']> {
    if (key.role === null || key.role === undefined) return null;
    const role = await this.store.collection('roles').get(key.role as string);
    if (!role || role.kind !== 'delivery' || role.env !== key.env) return 'missing';
    const permissions = await this.store.collection('role_permissions').find({ role: role.key as string });
    return { permissions: permissions.map((p) => ({ content_type: p.content_type as string, actions: p.actions as string[], all_objects: p.all_objects === true, objects: (p.objects as string[]) ?? [] })) };
  }
}
