import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';

/** tsx's ESM registration module (resolving through `require` finds its CommonJS twin beside it). */
const tsxApi = (): string => pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs')).href;

/** A module running in a worker thread: the one message it posts, and a way to stop it early. */
export type WorkerTask<T> = {
  readonly result: Promise<T>;
  /** Ends the thread (if it still runs) and waits until it has. */
  readonly stop: () => Promise<void>;
};

/**
 * Runs the module `name` beside the module `from` (its `import.meta.url`) in a worker thread,
 * with `data` as its `workerData` (docs/decisions/0141). Built, the module is plain JavaScript;
 * run from the TypeScript sources (tests, the benchmark), the thread registers tsx before
 * importing it, as a worker does not inherit the loader the main thread was started with.
 */
export function workerTask<T>(from: string, name: string, data: unknown): WorkerTask<T> {
  const ext = extname(new URL(from).pathname);
  const entry = JSON.stringify(new URL(`./${name}${ext}`, from).href);
  const source =
    ext === '.ts'
      ? `import(${JSON.stringify(tsxApi())}).then(({ register }) => { register(); return import(${entry}); })`
      : `import(${entry})`;
  const worker = new Worker(source, { eval: true, workerData: data });
  let exited = false;
  const exit = new Promise<number>((resolve) =>
    worker.once('exit', (code) => {
      exited = true;
      resolve(code);
    }),
  );
  const result = new Promise<T>((resolve, reject) => {
    worker.once('message', (message: T) => resolve(message));
    worker.once('error', reject);
    void exit.then((code) => reject(new Error(`the ${name} thread ended (code ${code}) without an answer`)));
  });
  // A caller that stops the task early handles the failure itself.
  result.catch(() => {});
  return {
    result,
    stop: async () => {
      if (!exited) await worker.terminate();
      await exit;
    },
  };
}

/**
 * In the worker's module: posts what `work` resolves to, or ends the thread with its failure as
 * a native Error. Only those cross to the main thread with their message: SQLite's errors, for
 * one, would arrive as `{ code }` alone.
 */
export async function answer<T>(work: Promise<T>): Promise<void> {
  try {
    parentPort?.postMessage(await work);
  } catch (error) {
    if (error instanceof Error) throw Object.assign(new Error(`${error.name}: ${error.message}`), { stack: error.stack });
    throw error;
  }
}
