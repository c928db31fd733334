import { parentPort, Worker } from 'node:worker_threads';
import { workerSource } from '../worker-source.js';

/** A module running in a worker thread: its answer, what it told before (`tell`), and a way to stop it early. */
export type WorkerTask<T, E = never> = {
  readonly result: Promise<T>;
  /** What the module passed to `tell` before its answer (rejects as `result` does if it never did). */
  readonly early: Promise<E>;
  /** Ends the thread (if it still runs) and waits until it has. */
  readonly stop: () => Promise<void>;
};

/**
 * Runs the module `name` beside the module `from` (its `import.meta.url`) in a worker thread,
 * with `data` as its `workerData` (docs/decisions/0141). Built, the module is plain JavaScript;
 * run from the TypeScript sources (tests, the benchmark), the thread registers tsx before
 * importing it, as a worker does not inherit the loader the main thread was started with.
 */
export function workerTask<T, E = never>(from: string, name: string, data: unknown): WorkerTask<T, E> {
  const worker = new Worker(workerSource(from, name), { eval: true, workerData: data });
  let exited = false;
  const exit = new Promise<number>((resolve) =>
    worker.once('exit', (code) => {
      exited = true;
      resolve(code);
    }),
  );
  const settle = <V>(kind: Message['kind']): Promise<V> =>
    new Promise<V>((resolve, reject) => {
      worker.on('message', (message: Message) => {
        if (message.kind === kind) resolve(message.value as V);
      });
      worker.once('error', reject);
      void exit.then((code) => reject(new Error(`the ${name} thread ended (code ${code}) without ${kind === 'early' ? 'telling' : 'an answer'}`)));
    });
  const early = settle<E>('early');
  const result = settle<T>('result');
  // A caller that stops the task early handles the failure itself.
  result.catch(() => {});
  early.catch(() => {});
  return {
    result,
    early,
    stop: async () => {
      if (!exited) await worker.terminate();
      await exit;
    },
  };
}

/** What a worker's module posts: what it tells before its answer, then its answer. */
type Message = { readonly kind: 'early' | 'result'; readonly value: unknown };

/** In the worker's module: tells the main thread `value` before the answer (its task's `early`). */
export function tell(value: unknown): void {
  parentPort?.postMessage({ kind: 'early', value } satisfies Message);
}

/**
 * In the worker's module: posts what `work` resolves to, or ends the thread with its failure as
 * a native Error. Only those cross to the main thread with their message: SQLite's errors, for
 * one, would arrive as `{ code }` alone.
 */
export async function answer<T>(work: Promise<T>): Promise<void> {
  try {
    parentPort?.postMessage({ kind: 'result', value: await work } satisfies Message);
  } catch (error) {
    if (error instanceof Error) throw Object.assign(new Error(`${error.name}: ${error.message}`), { stack: error.stack });
    throw error;
  }
}
