import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { Scored, TextQuery } from '../../projections/search-ports.js';
import { workerSource } from '../worker-source.js';
import type { Change } from './text-index-keeper.js';
import type { PostedChanges, ThreadAnswer, ThreadData, ThreadRequest } from './text-search-thread.js';

/** How long a stop waits for the thread to close its connection before it is ended. */
const STOP_TIMEOUT_MS = 2_000;

type Pending = { readonly resolve: (answer: ThreadAnswer | null) => void; readonly reject: (error: Error) => void };

/**
 * The text search thread of one delivery index file, seen from the main thread
 * (docs/decisions/0305): started on the first search, it holds the in-memory text index and
 * answers text searches, so that the main thread keeps only the HTTP work and two searches run
 * on two cores. The writer's changes are posted right after each COMMIT on a port of their own,
 * which the thread empties before each search (a search posted after a commit sees it); the
 * generation being committed is shared, so that the thread tells its own process's commit, whose
 * changes are on their way, from another connection's. A search answers null when the thread
 * could not start or has died: the caller then searches in its own thread, as without one.
 */
export class TextSearchThread {
  private worker: Worker | null = null;
  private changes: MessagePort | null = null;
  private failed = false;
  private stopped = false;
  private exited: Promise<void> = Promise.resolve();
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly committingAt = new BigInt64Array(new SharedArrayBuffer(8));

  constructor(
    private readonly file: string,
    /** The thread's index is loaded at once up to this many rows (text-index-keeper.ts's SYNC_LOAD_ROWS by default). */
    private readonly syncLoadRows?: number,
    /** The module the thread runs, beside this one (another only in tests of a thread that fails). */
    private readonly module = 'text-search-thread',
  ) {}

  /** Whether the thread runs (or is starting): its copy wants every change in full. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Whether searches go to the thread (false once it failed or was stopped). */
  get available(): boolean {
    return !this.failed && !this.stopped;
  }

  private start(): Worker | null {
    if (this.worker) return this.worker;
    if (!this.available) return null;
    const channel = new MessageChannel();
    const data: ThreadData = { file: this.file, changes: channel.port2, committing: this.committingAt, syncLoadRows: this.syncLoadRows };
    let worker: Worker;
    try {
      worker = new Worker(workerSource(import.meta.url, this.module), { eval: true, workerData: data, transferList: [channel.port2] });
    } catch (error) {
      this.fail(error);
      return null;
    }
    worker.on('message', (answer: ThreadAnswer) => this.answered(answer));
    worker.on('error', (error) => this.fail(error));
    this.exited = new Promise<void>((resolve) =>
      worker.once('exit', (code) => {
        if (this.worker === worker) {
          if (this.stopped) this.ended();
          else this.fail(new Error(`the thread ended (code ${code})`));
        }
        resolve();
      }),
    );
    // After the listeners (a 'message' listener refs the port again): the thread keeps the
    // process alive only while a search waits for it.
    worker.unref();
    this.worker = worker;
    this.changes = channel.port1;
    return worker;
  }

  /** The thread failed to start or died: searches go back to the caller's thread, those waiting included. */
  private fail(error: unknown): void {
    if (!this.stopped) process.emitWarning(`text search thread failed, searching on the main thread: ${error instanceof Error ? error.message : String(error)}`);
    this.failed = true;
    this.ended();
  }

  private ended(): void {
    this.worker = null;
    this.changes?.close();
    this.changes = null;
    for (const waiting of this.pending.values()) waiting.resolve(null);
    this.pending.clear();
  }

  private answered(answer: ThreadAnswer): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.worker?.unref();
    if (answer.error !== undefined) waiting.reject(new Error(answer.error));
    else waiting.resolve(answer);
  }

  private ask(request: ThreadRequest & { readonly id: number }): Promise<ThreadAnswer | null> {
    const worker = this.start();
    if (!worker) return Promise.resolve(null);
    return new Promise<ThreadAnswer | null>((resolve, reject) => {
      if (this.pending.size === 0) worker.ref();
      this.pending.set(request.id, { resolve, reject });
      // Posted at once, one message a search (docs/decisions/0309): requests held for the end of
      // the turn made the two threads take turns with ten connections instead of overlapping. A
      // search posted after a commit still follows its changes, posted at once on their port.
      worker.postMessage(request);
    });
  }

  /** The documents of the search, best first; null when the thread is not there to answer. */
  async search(env: string, folder: string, query: TextQuery): Promise<Scored[] | null> {
    const answer = await this.ask({ id: this.nextId++, env, folder, query });
    return answer && (answer.hits ?? []);
  }

  /** How many times the thread's copy was loaded (for tests and measurements); null without a thread. */
  async loads(): Promise<number | null> {
    if (!this.worker) return null;
    return (await this.ask({ id: this.nextId++, loads: true }))?.loads ?? null;
  }

  /** Before COMMIT: the writer commits this generation of the FTS rows. */
  committing(generation: number): void {
    Atomics.store(this.committingAt, 0, BigInt(generation));
  }

  /** After COMMIT: the thread's copy takes the changes (before any search posted from now on). */
  committed(changes: readonly Change[], generation: number): void {
    this.changes?.postMessage({ changes, generation } satisfies PostedChanges);
  }

  /** Ends the thread (its connection closed first); searches after it go to the caller's thread. */
  async stop(): Promise<void> {
    this.stopped = true;
    const worker = this.worker;
    if (!worker) return;
    worker.postMessage({ stop: true } satisfies ThreadRequest);
    const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
    await this.exited;
    clearTimeout(timer);
  }
}
