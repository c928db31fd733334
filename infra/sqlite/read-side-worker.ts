import { Worker } from 'node:worker_threads';
import type { Position, StoredEvent } from '../../commands/ports.js';
import type { Doc } from '../../projections/ports.js';
import type { RecentDocs } from '../../projections/recent-docs.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import { workerSource } from '../worker-source.js';
import type { CommittedRow } from './event-store.js';
import type { ReadSideReplies, ReadSideReply, ReadSideRequest } from './read-side-messages.js';

type Committed = Extract<ReadSideReply, { ok: true }>;
type Pending = { readonly resolve: (reply: Committed) => void; readonly reject: (error: Error) => void };

/** How long closing waits for the thread to close its connections before ending it. */
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * How long the thread keeps a preview's transaction open for its batches (docs/decisions/0313):
 * a sync takes 2.5 to 4 ms; the read-model file's write lock is held meanwhile, and a writer of
 * the main thread (the cascades' checkpoint, a rebuild's swap) waits for it.
 */
const PREVIEW_MS = 50;

/**
 * The read side's thread seen from the main thread (docs/decisions/0307): each batch of the read
 * models, revisions or usage is posted to it and answered once its unit of work committed or
 * failed. Started with the first batch; a thread that ended fails what it had and the next batch
 * starts a new one. It never keeps the process alive.
 */
export class ReadSideThread {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  /** Batches the thread committed (diagnostics and tests). */
  committed = 0;
  /** Batches posted with their events, and those that named an earlier one's instead (diagnostics and tests). */
  readonly posted = { copied: 0, named: 0 };
  /** Groups posted as previews, and batches committed from one (diagnostics and tests, docs/decisions/0313). */
  readonly previews = { posted: 0, committed: 0 };
  /**
   * The last batch posted with its events. The runners take each group of events together, so
   * the next runner's batch is often the same events (the same objects, from the event store's
   * shared page): it names that request instead of copying them again (docs/decisions/0311).
   */
  private lastCopied: { readonly id: number; readonly first: StoredEvent; readonly last: StoredEvent; readonly length: number } | null = null;

  /**
   * `oneCommit`: the thread applies the batches it has at once in one transaction (docs/decisions/0311);
   * `preview`: with it, `preview` posts each group committed, applied during its sync (0313).
   */
  constructor(
    private readonly file: string,
    private readonly options: { readonly oneCommit: boolean; readonly preview?: boolean; readonly previewMs?: number } = { oneCommit: true },
  ) {}

  private start(): Worker {
    // A new thread holds no earlier batch.
    this.lastCopied = null;
    const worker = new Worker(workerSource(import.meta.url, 'read-side-thread'), {
      eval: true,
      workerData: { file: this.file, oneCommit: this.options.oneCommit, previewMs: this.options.previewMs ?? PREVIEW_MS },
    });
    worker.on('message', (replies: ReadSideReplies) => {
      for (const reply of replies) this.settle(reply);
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (code) => this.fail(worker, new Error(`the read side's thread ended (exit code ${code})`)));
    // After the listeners: a 'message' listener refs the port again (background-checkpoints.ts).
    worker.unref();
    return worker;
  }

  private settle(reply: ReadSideReplies[number]): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (reply.ok) {
      this.committed++;
      if (reply.previewed) this.previews.committed++;
      waiting.resolve(reply);
    } else waiting.reject(new Error(reply.message));
  }

  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  apply(target: string, events: readonly StoredEvent[], position: Position): Promise<Committed> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise<Committed>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ kind: 'apply', id, target, events: this.eventsOf(id, events), position } satisfies ReadSideRequest);
    });
  }

  /**
   * A group the event store just committed, before its WAL sync (its `onCommitted`): the thread
   * applies it and keeps the transaction open until the runners' batches for it come (0313).
   * Only to a thread already running (the first batch starts one) and with rounds on.
   */
  preview(rows: readonly CommittedRow[]): void {
    if (!this.worker || !this.options.preview || !this.options.oneCommit || rows.length === 0) return;
    this.previews.posted++;
    this.worker.postMessage({ kind: 'preview', rows } satisfies ReadSideRequest);
  }

  /** `events` to post with request `id`, or the earlier request that carried the same objects. */
  private eventsOf(id: number, events: readonly StoredEvent[]): readonly StoredEvent[] | { readonly sameAs: number } {
    const first = events[0];
    const last = events[events.length - 1];
    const known = this.lastCopied;
    // A runner's batch is its events in position order: the same first and last objects and length are the same batch.
    if (known && first === known.first && last === known.last && events.length === known.length) {
      this.posted.named++;
      return { sameAs: known.id };
    }
    this.lastCopied = first && last ? { id, first, last, length: events.length } : null;
    this.posted.copied++;
    return events;
  }

  /** After the runners stopped: the thread closes its connections and ends. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ kind: 'close' } satisfies ReadSideRequest);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), CLOSE_TIMEOUT_MS)));
    if ((await Promise.race([exited, late])) === 'late') await worker.terminate();
    clearTimeout(timer);
  }
}

/**
 * `local`'s batches applied on the thread: the same name, and the checkpoint read on the main
 * thread's connection (the thread's commits are visible to it). `recent` gets the resources a
 * committed read-model batch handed over, frozen as the batch on the main thread froze them.
 */
export function onReadSideThread(thread: ReadSideThread, local: ProjectionTarget, recent?: RecentDocs): ProjectionTarget {
  return {
    name: local.name,
    checkpoint: () => local.checkpoint(),
    async apply(events, position) {
      let reply: Committed;
      try {
        reply = await thread.apply(local.name, events, position);
      } catch (error) {
        // Nothing of the batch is stored: hand over nothing (read-model-target.ts).
        recent?.forget();
        throw error;
      }
      if (!recent || !reply.handed) return;
      const docs = new Map<string, Doc | null>();
      for (const [id, doc] of reply.handed.docs) docs.set(id, doc === null ? null : Object.freeze(doc));
      recent.committed(docs, reply.handed.removed);
    },
  };
}
