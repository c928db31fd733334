import { expect } from 'chai';
import fc from 'fast-check';
import type { KeyKind } from '../../domain/api-keys/events.js';
import { ACTIONS } from '../../domain/roles/content-types.js';
import { rightsOf, type Right } from '../../domain/roles/escalation.js';
import type { PermissionFields } from '../../domain/roles/events.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * The model-based test of escalation prevention over HTTP, with few runs (docs/decisions/0332):
 * random roles and keys made by the administrator, then random role and key requests sent by
 * random management keys; afterwards no key holds a right that no key held at the start.
 */

const OBJECTS = ['a', 'b', 'c'];
const TYPES: Record<KeyKind, string[]> = { management: ['collections', 'resources', 'flux-apis'], delivery: ['flux-apis', 'collections'] };
/** Every starting management role may reach the key and role routes, so that the escalation rule, not the route's permission check, is what decides. */
const ROUTES: PermissionFields[] = ['management-api', 'delivery-api'].map((content_type) => ({ content_type, actions: ['create', 'read', 'update'], all_objects: true, objects: [] }));
const BASE: Record<KeyKind, string> = { management: 'management-api', delivery: 'delivery-api' };

const permission = (kind: KeyKind) =>
  fc.record({ content_type: fc.constantFrom(...TYPES[kind]), actions: fc.subarray([...ACTIONS[kind]], { minLength: 1 }), all_objects: fc.boolean(), objects: fc.subarray(OBJECTS) });
const permissions = (kind: KeyKind) => fc.uniqueArray(permission(kind), { maxLength: 3, selector: (p) => p.content_type });
const kind = fc.constantFrom<KeyKind>('management', 'delivery');
const rarely = fc.nat(7).map((n) => n === 0);

type Op =
  | { op: 'createRole'; kind: KeyKind; full_access: boolean; permissions: PermissionFields[] }
  | { op: 'updateRole'; role: number; full_access: boolean }
  | { op: 'setPermission'; role: number; permission: PermissionFields }
  | { op: 'deletePermission'; role: number; content_type: string }
  | { op: 'addObject'; role: number; content_type: string; object: string }
  | { op: 'bindKey'; kind: KeyKind; key: number | null; role: number | null };

const op: fc.Arbitrary<Op> = fc.oneof(
  kind.chain((k) => fc.record({ op: fc.constant('createRole' as const), kind: fc.constant(k), full_access: rarely, permissions: permissions(k) })),
  fc.record({ op: fc.constant('updateRole' as const), role: fc.nat(9), full_access: rarely }),
  kind.chain((k) => fc.record({ op: fc.constant('setPermission' as const), role: fc.nat(9), permission: permission(k) })),
  fc.record({ op: fc.constant('deletePermission' as const), role: fc.nat(9), content_type: fc.constantFrom('collections', 'resources', 'flux-apis', 'management-api') }),
  fc.record({ op: fc.constant('addObject' as const), role: fc.nat(9), content_type: fc.constantFrom('collections', 'resources', 'flux-apis', 'management-api'), object: fc.constantFrom(...OBJECTS, 'd') }),
  fc.record({ op: fc.constant('bindKey' as const), kind, key: fc.option(fc.nat(9)), role: fc.option(fc.nat(9), { freq: 4 }) }),
);

const world = fc.record({
  roles: fc.array(kind.chain((k) => fc.record({ kind: fc.constant(k), permissions: permissions(k) })), { minLength: 1, maxLength: 3 }),
  keys: fc.array(fc.record({ kind, role: fc.nat(9) }), { minLength: 1, maxLength: 3 }),
});

type Key = { key: string; public_key: string; secret_key: string; kind: KeyKind };
type RoleDoc = { key: string; kind: KeyKind; full_access: boolean; permissions: PermissionFields[] };

const within = (r: Right, s: Right): boolean =>
  r.content_type === s.content_type && r.action === s.action && (s.objects === 'all' || (r.objects !== 'all' && r.objects.every((o) => (s.objects as readonly string[]).includes(o))));

describe('HTTP: escalation prevention, model-based (few runs)', function () {
  this.timeout(120_000);
  let s: TestService;
  const path = (k: KeyKind, rest: string) => `/v1/${s.env}/permissions/${BASE[k]}/${rest}`;

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
  });
  after(async () => s?.stop());

  /** The roles and keys of the environment as the management interface reads them. */
  async function snapshot(): Promise<{ roles: Map<string, RoleDoc>; keys: { key: string; kind: KeyKind; role: string | null }[] }> {
    const roles = new Map<string, RoleDoc>();
    const keys: { key: string; kind: KeyKind; role: string | null }[] = [];
    for (const k of ['management', 'delivery'] as const) {
      for (const role of (await s.api('GET', path(k, 'roles/'))).body.results as { key: string; full_access: boolean | null }[]) {
        const perms = (await s.api('GET', path(k, `roles/${role.key}/permissions/`))).body as PermissionFields[];
        roles.set(role.key, { key: role.key, kind: k, full_access: role.full_access === true, permissions: perms.map((p) => ({ content_type: p.content_type, actions: p.actions, all_objects: p.all_objects, objects: p.objects ?? [] })) });
      }
      for (const key of (await s.api('GET', path(k, 'api-keys/'))).body.results as { key: string; role: string | null }[]) keys.push({ key: key.key, kind: k, role: key.role });
    }
    return { roles, keys };
  }

  const rightsOfKey = (roles: Map<string, RoleDoc>, key: { kind: KeyKind; role: string | null }): 'all' | Right[] => {
    if (key.role === null) return 'all';
    const role = roles.get(key.role);
    if (!role || role.kind !== key.kind) return [];
    return role.full_access ? 'all' : rightsOf({ kind: key.kind, permissions: role.permissions });
  };

  /** Requests of the generated operations that were answered 2xx. */
  let succeeded = 0;

  async function send(caller: Key, o: Op, roleKeys: string[], keys: Key[]): Promise<Key | null> {
    const as = async (method: string, p: string, body?: unknown) => {
      const r = await s.api(method, p, body, { authorization: `Simple ${caller.public_key}:${caller.secret_key}` });
      expect(r.status, `${method} ${p}: ${JSON.stringify(r.body)}`).to.be.below(500);
      if (r.status < 300) succeeded++;
      return r;
    };
    const role = (n: number) => roleKeys[n % roleKeys.length] as string;
    const kindOf = async (r: string): Promise<KeyKind> => ((await s.api('GET', path('management', `roles/${r}/`))).status === 200 ? 'management' : 'delivery');
    switch (o.op) {
      case 'createRole': {
        const made = await as('POST', path(o.kind, 'roles/'), o.kind === 'management' ? { name: 'm', full_access: o.full_access } : { name: 'm' });
        if (made.status === 201) {
          roleKeys.push(made.body.key);
          if (o.permissions.length) await as('POST', path(o.kind, `roles/${made.body.key}/permissions/batch/`), o.permissions);
        }
        return null;
      }
      case 'updateRole':
        await as('PUT', path('management', `roles/${role(o.role)}/`), { full_access: o.full_access });
        return null;
      case 'setPermission': {
        const r = role(o.role);
        await as('POST', path(await kindOf(r), `roles/${r}/permissions/`), o.permission);
        return null;
      }
      case 'deletePermission': {
        const r = role(o.role);
        await as('DELETE', path(await kindOf(r), `roles/${r}/permissions/?content_type=${o.content_type}`));
        return null;
      }
      case 'addObject': {
        const r = role(o.role);
        await as('POST', path(await kindOf(r), `roles/${r}/permissions/objects/`), { content_type: o.content_type, object_key: o.object });
        return null;
      }
      case 'bindKey': {
        const target = o.key === null ? null : keys.filter((k) => k.kind === o.kind)[o.key % Math.max(1, keys.filter((k) => k.kind === o.kind).length)];
        const roleKey = o.role === null ? null : role(o.role);
        if (target) {
          await as('PUT', path(o.kind, `api-keys/${target.key}/`), { role: roleKey });
          return null;
        }
        const made = await as('POST', path(o.kind, 'api-keys/'), { role: roleKey });
        return made.status === 201 ? { ...made.body, kind: o.kind } : null;
      }
    }
  }

  it('never lets the rights any key holds grow, whoever sends which role and key requests', async () => {
    await fc.assert(
      fc.asyncProperty(world, fc.array(fc.record({ by: fc.nat(9), op }), { minLength: 1, maxLength: 8 }), async (start, steps) => {
        const roleKeys: string[] = [];
        const keys: Key[] = [];
        try {
          for (const r of start.roles) {
            const made = await s.api('POST', path(r.kind, 'roles/'), { name: 'start' });
            roleKeys.push(made.body.key);
            const all = r.kind === 'management' ? [...r.permissions, ...ROUTES] : r.permissions;
            if (all.length) expect((await s.api('POST', path(r.kind, `roles/${made.body.key}/permissions/batch/`), all)).status).to.equal(200);
          }
          for (const k of start.keys) {
            const ofKind = roleKeys.filter((_, i) => start.roles[i]!.kind === k.kind);
            const made = await s.api('POST', path(k.kind, 'api-keys/'), { role: ofKind.length ? ofKind[k.role % ofKind.length] : null });
            keys.push({ ...made.body, kind: k.kind });
          }
          const before = await snapshot();
          const held = before.keys.map((k) => rightsOfKey(before.roles, k));
          for (const { by, op: o } of steps) {
            const callers = keys.filter((k) => k.kind === 'management');
            if (callers.length === 0) break;
            const made = await send(callers[by % callers.length]!, o, roleKeys, keys);
            if (made) keys.push(made);
          }
          const after = await snapshot();
          if (held.includes('all')) return;
          const start_ = held.flat() as Right[];
          for (const k of after.keys) {
            const now = rightsOfKey(after.roles, k);
            expect(now, `${k.key} became unrestricted`).to.not.equal('all');
            const grown = (now as Right[]).find((r) => !start_.some((x) => within(r, x)));
            expect(grown, `${k.key} holds ${JSON.stringify(grown)}`).to.equal(undefined);
          }
        } finally {
          const now = await snapshot();
          for (const k of now.keys) await s.api('DELETE', path(k.kind, `api-keys/${k.key}/`));
          for (const r of now.roles.values()) await s.api('DELETE', path(r.kind, `roles/${r.key}/`));
        }
      }),
      { numRuns: Number(process.env.ESCALATION_HTTP_RUNS ?? 8) },
    );
    expect(succeeded, 'the rule is not a blanket refusal').to.be.greaterThan(0);
  });
});
