import { Worker } from 'node:worker_threads';
import type { Position, StoredEvent } from '../../commands/ports.js';
import type { Doc } from '../../projections/ports.js';
import type { RecentDocs } from '../../projections/recent-docs.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import { workerSource } from '../worker-source.js';
import type { ReadSideReply, ReadSideRequest } from './read-side-messages.js';

type Committed = Extract<ReadSideReply, { ok: true }>;
type Pending = { readonly resolve: (reply: Committed) => void; readonly reject: (error: Error) => void };

/** How long closing waits for the thread to close its connections before ending it. */
const CLOSE_TIMEOUT_MS = 5_000;

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

  constructor(private readonly file: string) {}

  private start(): Worker {
    const worker = new Worker(workerSource(import.meta.url, 'read-side-thread'), { eval: true, workerData: { file: this.file } });
    worker.on('message', (reply: ReadSideReply & { readonly id: number }) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (reply.ok) {
        this.committed++;
        waiting.resolve(reply);
      }
      else waiting.reject(new Error(reply.message));
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (code) => this.fail(worker, new Error(`the read side's thread ended (exit code ${code})`)));
    // After the listeners: a 'message' listener refs the port again (background-checkpoints.ts).
    worker.unref();
    return worker;
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
      worker.postMessage({ kind: 'apply', id, target, events, position } satisfies ReadSideRequest);
    });
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
