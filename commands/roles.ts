import type { KeyKind } from '../domain/api-keys/events.js';
import { roles, type PermissionInput, type RolesCommand } from '../domain/roles/decider.js';
import { roleChangeRefusal } from '../domain/roles/escalation.js';
import type { PermissionFields } from '../domain/roles/events.js';
import type { CommandBus, Handled } from './command-bus.js';
import { planLimits, type CommandContext } from './context.js';
import { callerOf, refuseEscalation } from './escalation.js';
import { newKey } from './keys.js';
import { streams } from './streams.js';

type Result = Handled<unknown, unknown>;

export type RoleInput = { readonly name: string; readonly description: string; readonly full_access: boolean };

/** Every roles command passes the escalation check on the state it is decided on (docs/decisions/0331). */
async function send(bus: CommandBus, ctx: CommandContext, command: RolesCommand): Promise<Result> {
  const caller = await callerOf(bus, ctx);
  return bus.handle(roles, streams.roles(ctx.env), async (state) => {
    refuseEscalation(roleChangeRefusal(caller, command, state));
    return command;
  }, ctx.metadata);
}

export async function createRole(bus: CommandBus, ctx: CommandContext, kind: KeyKind, input: RoleInput): Promise<Result & { key: string }> {
  const limits = await planLimits(bus, ctx.env);
  const key = newKey();
  const full_access = kind === 'delivery' ? false : input.full_access;
  const handled = await send(bus, ctx, { type: 'CreateRole', data: { ...input, full_access, env: ctx.env, kind, key, created_at: ctx.now, quota: limits.roles } });
  return { ...handled, key };
}

export const updateRole = (bus: CommandBus, ctx: CommandContext, kind: KeyKind, key: string, changes: Partial<RoleInput>): Promise<Result> =>
  send(bus, ctx, { type: 'UpdateRole', data: { ...changes, env: ctx.env, kind, key } });

export const deleteRole = (bus: CommandBus, ctx: CommandContext, kind: KeyKind, key: string): Promise<Result> =>
  send(bus, ctx, { type: 'DeleteRole', data: { env: ctx.env, kind, key } });

const withKey = (p: PermissionFields): PermissionInput => ({ ...p, key: newKey() });

export const setPermission = (bus: CommandBus, ctx: CommandContext, kind: KeyKind, role: string, permission: PermissionFields): Promise<Result> =>
  send(bus, ctx, { type: 'SetPermission', data: { env: ctx.env, kind, role, ...withKey(permission) } });

export const deletePermission = (bus: CommandBus, ctx: CommandContext, kind: KeyKind, role: string, content_type: string): Promise<Result> =>
  send(bus, ctx, { type: 'DeletePermission', data: { env: ctx.env, kind, role, content_type } });

export const replacePermissions = (bus: CommandBus, ctx: CommandContext, kind: KeyKind, role: string, permissions: readonly PermissionFields[]): Promise<Result> =>
  send(bus, ctx, { type: 'ReplacePermissions', data: { env: ctx.env, kind, role, permissions: permissions.map(withKey) } });

export const changePermissionObject = (
  bus: CommandBus,
  ctx: CommandContext,
  kind: KeyKind,
  role: string,
  change: { add: boolean; content_type: string; object_key: string },
): Promise<Result> =>
  send(bus, ctx, {
    type: change.add ? 'AddPermissionObject' : 'RemovePermissionObject',
    data: { env: ctx.env, kind, role, content_type: change.content_type, object_key: change.object_key },
  });
