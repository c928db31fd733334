import { concatMap, type Subscription } from 'rxjs';
import type { EventStore, StoredEvent } from '../../commands/ports.js';
import { matchesReplay } from './replay-filter.js';
import type { ReplayRequest } from './replay-query.js';

/** Where a replay writes; `send` resolves once the client can take more (backpressure). */
export type ReplaySink = {
  send(event: StoredEvent): Promise<void>;
  readonly closed: boolean;
};

/** A check beyond the filter that needs a lookup (the organization of a global replay). */
export type Include = (event: StoredEvent) => Promise<boolean>;

const PAGE = 500;

/**
 * Sends the matching events after `request.from` in global order: the history page by page
 * up to the head seen when the replay began, then, when following, every new event as it is
 * appended, until the client goes away or `limit` events were sent.
 */
export async function runReplay(store: EventStore, request: ReplayRequest, include: Include, sink: ReplaySink, closed: Promise<void>): Promise<void> {
  let sent = 0;
  let last = request.from;
  const done = (): boolean => sink.closed || (request.limit !== null && sent >= request.limit);
  const offer = async (event: StoredEvent): Promise<void> => {
    last = event.position;
    if (done() || !matchesReplay(request.filter, event) || !(await include(event))) return;
    await sink.send(event);
    sent += 1;
  };

  const head = await store.headPosition();
  if (request.filter.stream !== undefined) {
    // One stream: read it alone instead of scanning the log; a follow goes on from the head.
    for (const event of await store.readStream(request.filter.stream)) {
      if (done()) return;
      if (event.position > request.from && event.position <= head) await offer(event);
    }
    if (head > last) last = head;
  }
  history: while (!done() && last < head) {
    const page = await store.readAll(last, PAGE);
    if (page.length === 0) break;
    for (const event of page) {
      if (event.position > head || done()) break history;
      await offer(event);
    }
  }
  if (!request.follow || done()) return;

  let subscription: Subscription | undefined;
  await new Promise<void>((resolve) => {
    subscription = store
      .subscribeToAll(last)
      .pipe(concatMap((event) => offer(event)))
      .subscribe({
        next: () => {
          if (done()) resolve();
        },
        complete: resolve,
        error: () => resolve(),
      });
    void closed.then(resolve);
  });
  subscription?.unsubscribe();
}
