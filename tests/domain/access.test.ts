import { expect } from 'chai';
import { apiKeys } from '../../domain/api-keys/decider.js';
import type { ApiKeyCreated } from '../../domain/api-keys/events.js';
import { deliveryAccess } from '../../domain/roles/grants.js';
import { managementAllows, managementNeed } from '../../domain/roles/management-scope.js';
import { roles } from '../../domain/roles/decider.js';
import type { RoleCreated } from '../../domain/roles/events.js';
import { deciderSpec } from '../support/decider-spec.js';

const at = '2026-01-01T00:00:00.000Z';
const key = (k: string, kind: 'management' | 'delivery' = 'delivery'): ApiKeyCreated => ({
  type: 'ApiKeyCreated',
  data: { env: 'e', kind, key: k, description: '', role: null, public_key: `pk-${k}`, secret_hash: 'h', created_at: at },
});
const role = (k: string, kind: 'management' | 'delivery' = 'delivery'): RoleCreated => ({
  type: 'RoleCreated',
  data: { env: 'e', kind, key: k, name: k, description: '', full_access: false, created_at: at },
});

describe('API keys decider', () => {
  const spec = deciderSpec(apiKeys);
  it('counts both kinds against one quota, and a deleted key frees its slot', () => {
    const create = { type: 'CreateApiKey', data: { ...key('c').data, quota: 2, roleFound: false } } as const;
    spec.given([key('a', 'management'), key('b')]).when(create).thenThrows('plan_limit_exceeded', { entity: 'api_keys', current: 2, limit: 2 });
    spec.given([key('a', 'management'), key('b'), { type: 'ApiKeyDeleted', data: { env: 'e', kind: 'delivery', key: 'b', snapshot: { description: '', public_key: 'pk-b', role_key: null } } }])
      .when(create)
      .then([key('c')]);
  });
  it('refuses a role it was not told exists, and a key of the other kind as not found', () => {
    spec.given([]).when({ type: 'CreateApiKey', data: { ...key('c').data, role: 'r', quota: 5, roleFound: false } }).thenThrows('validation_error', { role: ['no such role'] });
    spec.given([key('a', 'management')]).when({ type: 'DeleteApiKey', data: { env: 'e', kind: 'delivery', key: 'a' } }).thenThrows('not_found');
  });
  it('keeps at most one bearer token: revoking without one is not found', () => {
    const issue = { type: 'IssueBearerToken', data: { env: 'e', kind: 'delivery', key: 'a', token_hash: 'x', token_prefix: 'dlv_', issued_at: at } } as const;
    const revoke = { type: 'RevokeBearerToken', data: { env: 'e', kind: 'delivery', key: 'a' } } as const;
    spec.given([key('a')]).when(revoke).thenThrows('not_found');
    spec.given([key('a'), { type: 'BearerTokenIssued', data: { ...issue.data, role: null } }]).when(revoke).then([{ type: 'BearerTokenRevoked', data: { ...revoke.data, role: null } }]);
  });
});

describe('roles decider', () => {
  const spec = deciderSpec(roles);
  const perm = (content_type: string, objects: string[] = []) => ({ content_type, actions: ['read'], all_objects: objects.length === 0, objects, key: `k-${content_type}` });
  it('counts management and delivery roles against one quota', () => {
    spec.given([role('a', 'management')]).when({ type: 'CreateRole', data: { ...role('b').data, quota: 1 } }).thenThrows('plan_limit_exceeded', { entity: 'roles' });
  });
  it('creates a permission once, then updates it under the same key', () => {
    const set = { type: 'SetPermission', data: { env: 'e', kind: 'delivery', role: 'a', ...perm('flux-apis') } } as const;
    spec.given([role('a')]).when(set).then([{ type: 'PermissionCreated', data: set.data }]);
    spec.given([role('a'), { type: 'PermissionCreated', data: set.data }]).when({ ...set, data: { ...set.data, key: 'other' } }).then([{ type: 'PermissionUpdated', data: set.data }]);
  });
  it('replaces the whole set in a batch, deleting what the batch leaves out', () => {
    const old = { env: 'e', kind: 'delivery', role: 'a', ...perm('collections') } as const;
    const events = spec.given([role('a'), { type: 'PermissionCreated', data: old }]).when({ type: 'ReplacePermissions', data: { env: 'e', kind: 'delivery', role: 'a', permissions: [perm('flux-apis')] } }).thenReturns();
    expect(events.map((e) => e.type)).to.deep.equal(['PermissionDeleted', 'PermissionCreated']);
  });
  it('refuses a 51st object', () => {
    const objects = Array.from({ length: 50 }, (_, i) => `o${i}`);
    const data = { env: 'e', kind: 'delivery', role: 'a', ...perm('flux-apis', objects) } as const;
    spec.given([role('a'), { type: 'PermissionCreated', data }]).when({ type: 'AddPermissionObject', data: { env: 'e', kind: 'delivery', role: 'a', content_type: 'flux-apis', object_key: 'x' } }).thenThrows('validation_error');
  });
  it('counts objects across the role\'s permissions, but lets a role over the limit shrink', () => {
    const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const data = (content_type: string, objects: string[]) => ({ env: 'e', kind: 'delivery', role: 'a', ...perm(content_type, objects) }) as const;
    const created = (content_type: string, objects: string[]) => ({ type: 'PermissionCreated', data: data(content_type, objects) }) as const;
    const set = (content_type: string, objects: string[]) => ({ type: 'SetPermission', data: data(content_type, objects) }) as const;
    spec.given([role('a'), created('flux-apis', ids('a', 40))]).when(set('collections', ids('c', 11))).thenThrows('validation_error', { objects: ['at most 50 objects per role'] });
    spec.given([role('a'), created('flux-apis', ids('a', 40))]).when(set('collections', ids('c', 10))).then([created('collections', ids('c', 10))]);
    // A role from before the rule, with 60 objects, may still drop some.
    spec.given([role('a'), created('flux-apis', ids('a', 40)), created('collections', ids('c', 20))])
      .when(set('collections', ids('c', 15)))
      .then([{ type: 'PermissionUpdated', data: data('collections', ids('c', 15)) }]);
  });
});

describe('access rules', () => {
  const p = (content_type: string, actions: string[], objects: string[] | null = null) => ({ content_type, actions, all_objects: objects === null, objects: objects ?? [] });
  it('delivery: no role is unrestricted, a missing role reaches nothing, the API list decides 401 and actions 403', () => {
    expect(deliveryAccess(null, 'api', 'c', 'create')).to.equal('granted');
    expect(deliveryAccess('missing', 'api', 'c', 'read')).to.equal('not_authorized');
    expect(deliveryAccess({ permissions: [p('flux-apis', ['read'], ['other'])] }, 'api', 'c', 'read')).to.equal('not_authorized');
    expect(deliveryAccess({ permissions: [p('flux-apis', ['read'], ['api'])] }, 'api', 'c', 'update')).to.equal('denied');
    expect(deliveryAccess({ permissions: [p('flux-apis', ['read']), p('collections', ['read'], ['d'])] }, 'api', 'c', 'read')).to.equal('denied');
    expect(deliveryAccess({ permissions: [p('flux-apis', ['read']), p('collections', ['read'], ['c'])] }, 'api', 'c', 'read')).to.equal('granted');
  });
  it('management: maps paths and methods to content types and actions', () => {
    expect(managementNeed('GET', ['collections', 'tree'])).to.deep.equal({ content_type: 'collections', action: 'read', object: null });
    expect(managementNeed('PUT', ['collections', 'tree', 'collection'], 'c1')).to.deep.equal({ content_type: 'collections', action: 'update', object: 'c1' });
    expect(managementNeed('POST', ['collections', 'c1', 'resources'])).to.deep.equal({ content_type: 'resources', action: 'create', object: 'c1' });
    expect(managementNeed('POST', ['components', 'x', 'model', 'versions', 'v', 'publish'])?.action).to.equal('update');
    expect(managementNeed('POST', ['collections', 'c', 'resources', 'r', 'revisions', 'v', 'validate'])?.action).to.equal('read');
    expect(managementNeed('DELETE', ['permissions', 'delivery-api', 'api-keys', 'k', 'bearer-token'])).to.deep.equal({ content_type: 'delivery-api', action: 'update', object: 'k' });
    expect(managementNeed('DELETE', ['permissions', 'management-api', 'roles', 'r'])).to.deep.equal({ content_type: 'management-api', action: 'delete', object: 'r' });
    expect(managementNeed('GET', ['unknown'])).to.equal(null);
    // Webhooks (docs/decisions/0353) and schedules (0357).
    expect(managementNeed('POST', ['webhooks'])).to.deep.equal({ content_type: 'webhooks', action: 'create', object: null });
    expect(managementNeed('POST', ['webhooks', 'w', 'rotate-secret'])).to.deep.equal({ content_type: 'webhooks', action: 'update', object: 'w' });
    expect(managementNeed('POST', ['webhooks', 'w', 'deliveries', 'd', 'retry'])).to.deep.equal({ content_type: 'webhooks', action: 'update', object: 'w' });
    expect(managementNeed('GET', ['webhooks', 'w', 'deliveries'])).to.deep.equal({ content_type: 'webhooks', action: 'read', object: 'w' });
    expect(managementNeed('DELETE', ['webhooks', 'w'])).to.deep.equal({ content_type: 'webhooks', action: 'delete', object: 'w' });
    expect(managementNeed('GET', ['schedules'])).to.deep.equal({ content_type: 'resources', action: 'read', object: null });
    expect(managementNeed('DELETE', ['collections', 'c', 'resources', 'r', 'revisions', 'v', 'schedule'])).to.deep.equal({ content_type: 'resources', action: 'update', object: 'c' });
    expect(managementAllows([p('locales', ['read'])], { content_type: 'locales', action: 'read', object: null })).to.equal(true);
    expect(managementAllows([p('locales', ['read'], ['en'])], { content_type: 'locales', action: 'read', object: null })).to.equal(false);
    expect(managementAllows([p('locales', ['read'], ['en'])], { content_type: 'locales', action: 'read', object: 'en' })).to.equal(true);
  });
});
