import type { EventStore, Position } from '../../commands/ports.js';
import type { Projections } from '../../projections/runner.js';

/** The event a projection stopped on, when the runner reports one. */
export type ProjectionFault = { readonly event_type: string; readonly position: Position; readonly message: string };

/** One projection as `/readyz` shows it. */
export type ProjectionReport = {
  readonly name: string;
  /** The checkpoint: the position of the last event applied ('' before the first). */
  readonly position: Position;
  /** Events after the checkpoint, counted up to `max_lag + 1`. */
  readonly lag: number;
  readonly caught_up: boolean;
  readonly stopped: boolean;
  readonly error: ProjectionFault | null;
};

export type Readiness = {
  readonly status: 'ready' | 'not_ready';
  /** The first start's bootstrap (or a restart's reading of bootstrap.json) is done. */
  readonly bootstrapped: boolean;
  readonly draining: boolean;
  readonly event_store: { readonly reachable: boolean; readonly head: Position | null; readonly error: string | null };
  /** A projection is caught up while at most this many events are not applied yet. */
  readonly max_lag: number;
  readonly projections: readonly ProjectionReport[];
};

export type ReadinessDeps = {
  readonly eventStore: EventStore;
  readonly projections: Projections;
  readonly maxLag: number;
  /** Bound on each event-store call of one check. */
  readonly timeoutMs: number;
  readonly draining: () => boolean;
  readonly bootstrapped: () => boolean;
};

/** What a runner may report beyond its name and checkpoint (a fault policy adds `stopped` and `error`). */
type RunnerStatus = { readonly stopped?: boolean; readonly error?: ProjectionFault | null };

function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Each projection's checkpoint and lag, read from what the runners expose: `name` and
 * `checkpoint` always, and `status()` where a runner has one (its `stopped` and `error`).
 */
export async function projectionReports(deps: Omit<ReadinessDeps, 'draining' | 'bootstrapped'>): Promise<ProjectionReport[]> {
  // Reactors (cascades) are projections that issue commands: they are reported too, where they exist.
  const reactors = (deps.projections as { reactors?: Projections['runners'] }).reactors ?? [];
  return Promise.all(
    [...deps.projections.runners, ...reactors].map(async (runner) => {
      const own = (runner as unknown as { status?: () => RunnerStatus }).status?.() ?? {};
      const position = runner.checkpoint;
      const behind = await within(deps.eventStore.readAll(position, deps.maxLag + 1), deps.timeoutMs, 'the event store');
      const stopped = own.stopped === true;
      return { name: runner.name, position, lag: behind.length, caught_up: !stopped && behind.length <= deps.maxLag, stopped, error: own.error ?? null };
    }),
  );
}

/** `/readyz`: bootstrapped, the event store answers, and every projection runs and is within `maxLag` events of the head. */
export async function readiness(deps: ReadinessDeps): Promise<Readiness> {
  const draining = deps.draining();
  let head: Position | null = null;
  let error: string | null = null;
  try {
    head = await within(deps.eventStore.headPosition(), deps.timeoutMs, 'the event store');
  } catch (failure) {
    error = failure instanceof Error ? failure.message : String(failure);
  }
  const projections = head === null ? [] : await projectionReports(deps).catch(() => []);
  const bootstrapped = deps.bootstrapped();
  const ready = bootstrapped && !draining && head !== null && projections.length >= deps.projections.runners.length && projections.every((p) => p.caught_up);
  return { status: ready ? 'ready' : 'not_ready', bootstrapped, draining, event_store: { reachable: head !== null, head, error }, max_lag: deps.maxLag, projections };
}
