import { Worker } from 'node:worker_threads';
import { workerSource } from '../worker-source.js';
import { GATE, GATE_SLOTS, SLOT, SLOTS, type PostedAppend, type WriterReply, type WriterRequest } from './event-store-messages.js';

/** How long closing waits for the thread to commit what it holds and close its connection before ending it. */
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * A test hook of the writer thread (docs/decisions/0315): holds its WAL syncs back, or makes the
 * next ones fail, through memory both threads share (the thread blocks at the gate; appends posted
 * meanwhile wait in its port and form the next group, as while a real sync runs).
 */
export class WriterSyncGate {
  readonly buffer = new SharedArrayBuffer(4 * GATE_SLOTS);
  private readonly cells = new Int32Array(this.buffer);

  /** Every later sync waits at the gate until `release`. */
  hold(): void {
    Atomics.store(this.cells, GATE.hold, 1);
  }

  release(): void {
    Atomics.store(this.cells, GATE.hold, 0);
    Atomics.notify(this.cells, GATE.hold);
  }

  /** The next `n` syncs fail. */
  failNext(n = 1): void {
    Atomics.add(this.cells, GATE.fail, n);
  }

  /** Syncs that have waited at the gate so far. */
  get waited(): number {
    return Atomics.load(this.cells, GATE.waited);
  }
}

/**
 * The event store's writer thread seen from the main thread (docs/decisions/0315): appends are
 * posted in call order, one reply comes per group after its WAL sync. The shared slots say what
 * readers of the main thread may see (below the group committed and not yet synced) and whether
 * the log changed by this thread's commits alone. It never keeps the process alive while idle.
 */
export class WriterThread {
  private readonly worker: Worker;
  private readonly slots: BigInt64Array;
  private waiting = 0;
  /** Appends made while the thread has others: posted together at the end of the turn. */
  private batch: PostedAppend[] = [];
  private closed: Promise<void> | null = null;
  private exited = false;

  /** `onReply` gets every group's reply in commit order; `onExit` is told when the thread ended on its own (an error, or none). */
  constructor(
    file: string,
    gate: WriterSyncGate | null,
    onReply: (reply: Extract<WriterReply, { kind: 'group' }>) => void,
    onExit: (error: Error) => void,
  ) {
    const shared = new SharedArrayBuffer(8 * SLOTS);
    this.slots = new BigInt64Array(shared);
    Atomics.store(this.slots, SLOT.unsynced, -1n);
    this.worker = new Worker(workerSource(import.meta.url, 'event-store-thread'), { eval: true, workerData: { file, shared, gate: gate?.buffer ?? null } });
    let failed: Error | null = null;
    this.worker.on('message', (reply: WriterReply) => {
      if (reply.kind !== 'group') return;
      this.waiting -= reply.count;
      if (this.waiting === 0) this.worker.unref();
      onReply(reply);
    });
    this.worker.on('error', (error) => (failed = error));
    this.worker.on('exit', () => {
      this.exited = true;
      if (this.closed === null) onExit(failed ?? new Error("the event store's writer thread ended"));
    });
    this.worker.unref();
  }

  /**
   * The appends of one turn of the event loop are posted together at its end, as one message, as
   * the in-process store commits them as one group: each group is one batch for every projection
   * downstream, and each post costs the main thread a fixed part besides the copy of its events
   * (docs/decisions/0315: posted at once while the thread was idle, groups came smaller and more).
   */
  post(append: PostedAppend): void {
    if (this.waiting++ === 0) this.worker.ref();
    if (this.batch.length === 0) setImmediate(this.postBatch);
    this.batch.push(append);
  }

  private readonly postBatch = (): void => {
    const appends = this.batch;
    this.batch = [];
    if (appends.length > 0) this.worker.postMessage({ kind: 'appends', appends } satisfies WriterRequest);
  };

  /** The first position of the group committed and not yet synced, or -1 (read at any moment: the thread sets it before its COMMIT). */
  unsyncedFirst(): number {
    return Number(Atomics.load(this.slots, SLOT.unsynced));
  }

  /** Times the thread saw another connection's commit so far, and the highest position it inserted (read in that order). */
  writes(): { readonly foreign: bigint; readonly last: number } {
    const foreign = Atomics.load(this.slots, SLOT.foreign);
    return { foreign, last: Number(Atomics.load(this.slots, SLOT.last)) };
  }

  /** Resolves once the thread committed, synced and answered every append posted before, and closed its connection. */
  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      if (this.exited) return resolve();
      const timer = setTimeout(() => void this.worker.terminate(), CLOSE_TIMEOUT_MS);
      this.worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.worker.ref();
      this.postBatch();
      this.worker.postMessage({ kind: 'close' } satisfies WriterRequest);
    });
    return this.closed;
  }
}
