import { environment } from '../domain/environment/decider.js';
import { notFound } from '../domain/errors.js';
import { organization } from '../domain/organization/decider.js';
import { limitsOf, type PlanLimits } from '../domain/plan.js';
import type { CommandBus } from './command-bus.js';
import type { EventMetadata } from './ports.js';
import { streams } from './streams.js';

/** Who sends a command, in which environment, and when. */
export type CommandContext = {
  readonly env: string;
  readonly metadata: EventMetadata;
  /** The request time, as every event's timestamp. */
  readonly now: string;
};

/** The plan limits of the organization that owns an environment, from the event store. */
export async function planLimits(bus: CommandBus, env: string): Promise<PlanLimits> {
  const { state: envState } = await bus.load(environment, streams.environment(env));
  if (envState.status !== 'active') throw notFound('environment_not_found', 'Environment');
  const { state: org } = await bus.load(organization, streams.organization(envState.organization));
  return org.status === 'active' ? limitsOf(org.plan, org.unlimited) : limitsOf('free');
}
