import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Management work one turn of the event loop takes before it lets the loop read sockets again
 * (docs/decisions/0275): about ten creates.
 */
export const TURN_BUDGET_MS = 4;

/**
 * The management listener, run in slices (docs/decisions/0275). Each request is handed to
 * `listener` from `setImmediate`, in the order the requests came, so a delivery read that
 * arrived in the same turn as writers' requests (answered where it is read, in well under a
 * millisecond) goes first. Once the requests started in one turn have taken `budgetMs` (their
 * promise continuations included), the rest wait for the next turn: the loop reads its sockets
 * in between, so a delivery read waits for one slice of writes instead of every write that
 * came before it. Nothing is skipped or reordered among management requests.
 */
export function deliveryReadsFirst<L extends Listener>(listener: L, budgetMs = TURN_BUDGET_MS): L {
  /** When the current turn's management work began; -1 before its first request. */
  let turnStarted = -1;
  let markerQueued = false;
  const newTurn = (): void => {
    markerQueued = false;
    turnStarted = -1;
  };
  const schedule = (req: IncomingMessage, res: ServerResponse): void => {
    // A marker queued ahead of the turn's requests tells them a new turn began.
    if (!markerQueued) {
      markerQueued = true;
      setImmediate(newTurn);
    }
    setImmediate(run, req, res);
  };
  const run = (req: IncomingMessage, res: ServerResponse): void => {
    const now = performance.now();
    if (turnStarted < 0) turnStarted = now;
    else if (now - turnStarted >= budgetMs) return schedule(req, res);
    listener(req, res);
  };
  return Object.assign(schedule, listener);
}
