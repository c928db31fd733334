import { apiKeys } from '../domain/api-keys/decider.js';
import { billingRefusal, keySpendRefusal, windowOf, type BillingSettings, type BillingUsage } from '../domain/billing.js';
import { environment } from '../domain/environment/decider.js';
import { assertWritable } from '../domain/environment/protection.js';
import { organization } from '../domain/organization/decider.js';
import { project } from '../domain/project/decider.js';
import { own } from '../domain/records.js';
import type { Message } from '../domain/decider.js';
import type { CommandBus, WriteGuard } from './command-bus.js';
import type { EventMetadata } from './ports.js';
import { streams } from './streams.js';

/** Billed usage of an organization in a window, as the usage projection counts it. */
export type UsageMeter = (organization: string, window: string) => Promise<BillingUsage>;
/** Writes an API key made in a window, as the usage projection counts them. */
export type KeyMeter = (key: string, window: string) => Promise<number>;

/** Commands that stay possible whatever the bill says: switching to a plan that allows more. */
const NOT_BILLED = new Set(['ChangePlan']);

/**
 * Later steps of an operation whose first step the guards admitted, and the releases that undo
 * or follow one (docs/decisions/0152): a project or environment create after its slot was
 * reserved, a slot freed after a delete or a failed create. Refusing them halfway would leave a
 * project without its environment or a slot held by nothing.
 */
const FOLLOW_UPS = new Set(['CreateProject', 'CreateEnvironment', 'ReleaseProjectSlot', 'ReleaseEnvironmentSlot', 'ReleaseResourceSlot', 'ReleaseCollectionSlots']);

const text = (data: unknown, name: string): string | null => {
  const value = (data as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' ? value : null;
};

/** The organization a command's write is billed to, or null (bootstrap, unknown streams). */
async function organizationOf(bus: CommandBus, stream: string, command: Message): Promise<string | null> {
  const env = text(command.data, 'env');
  if (env !== null) {
    const { state } = await bus.load(environment, streams.environment(env));
    return state.status === 'active' ? state.organization : null;
  }
  const org = text(command.data, 'organization');
  if (org !== null) return org;
  const [kind, key = ''] = [stream.slice(0, stream.indexOf('-')), stream.slice(stream.indexOf('-') + 1)];
  if (kind === 'environment') {
    const { state } = await bus.load(environment, stream);
    return state.status === 'active' ? state.organization : null;
  }
  if (kind === 'project') {
    const { state } = await bus.load(project, stream);
    return state.status === 'active' ? state.organization : null;
  }
  return kind === 'organization' ? key : null;
}

/**
 * Every write inside an environment (a command whose data names its `env`), from the
 * management interface or a delivery API alike, needs the environment enabled and
 * unprotected. Cascades the service runs itself (actor `system`) finish regardless.
 */
export function environmentWriteGuard(bus: CommandBus): WriteGuard {
  return async (_stream: string, command: Message, metadata: EventMetadata) => {
    if (metadata.actor_type === 'system' || FOLLOW_UPS.has(command.type)) return;
    const env = text(command.data, 'env');
    if (env === null) return;
    const { state } = await bus.load(environment, streams.environment(env));
    assertWritable(state);
  };
}

/** The cap of the API key that writes, with its kind and environment, or null when it has none. */
async function keyCapOf(bus: CommandBus, metadata: EventMetadata): Promise<{ cap: number; key: string; url: string } | null> {
  const actor = metadata.actor_type === 'apikey' ? metadata.actor : null;
  const key = typeof actor?.key === 'string' ? actor.key : null;
  const env = typeof actor?.environment === 'string' ? actor.environment : null;
  if (key === null || env === null) return null;
  const { state } = await bus.load(apiKeys, streams.apiKeys(env));
  const found = own(state.keys, key);
  if (!found || found.spend_cap_usd === null) return null;
  const kind = found.kind === 'management' ? 'management-api' : 'delivery-api';
  return { cap: found.spend_cap_usd, key, url: `/v1/${env}/permissions/${kind}/api-keys/${key}/` };
}

/**
 * Every write by a user or key is refused with 402 when its organization's plan allows no more;
 * on a paid plan, a write by a key with a spend cap of its own also when that cap is reached.
 */
export function billingGuard(bus: CommandBus, meter: UsageMeter, settings: BillingSettings, keyMeter?: KeyMeter): WriteGuard {
  return async (stream: string, command: Message, metadata: EventMetadata) => {
    if (metadata.actor_type === 'system' || NOT_BILLED.has(command.type) || FOLLOW_UPS.has(command.type)) return;
    const org = await organizationOf(bus, stream, command);
    if (org === null) return;
    const { state } = await bus.load(organization, streams.organization(org));
    if (state.status !== 'active') return;
    const refusal = billingRefusal(state.plan, await meter(org, windowOf(metadata.timestamp)), settings, metadata.timestamp);
    if (refusal) throw refusal;
    if (state.plan === 'free' || keyMeter === undefined) return;
    const capped = await keyCapOf(bus, metadata);
    if (capped === null) return;
    const keyRefusal = keySpendRefusal(capped.cap, await keyMeter(capped.key, windowOf(metadata.timestamp)), settings, metadata.timestamp, capped.url);
    if (keyRefusal) throw keyRefusal;
  };
}
