import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Scored, VectorQuery } from '../../projections/search-ports.js';
import type { VectorAsk, VectorReply } from './vector-worker.js';

type Pending = { resolve: (hits: Scored[]) => void; reject: (error: Error) => void };

/**
 * The worker next to this module: the compiled `.js` under dist/; under tsx (tests, the
 * benchmark's tools) the `.ts` source, loaded through tsx's register API, which a worker does
 * not inherit from its parent.
 */
function startWorker(file: string): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./vector-worker.js', import.meta.url), { workerData: { file } });
  // tsx's ESM entry (`tsx/esm/api` under the import condition), beside the CommonJS one require resolves.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const source = new URL('./vector-worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(code, { eval: true, workerData: { file } });
}

/**
 * k-NN vector queries answered by one worker thread with its own read connection
 * (docs/decisions/0183). `search` posts the query at once, before its first await, so the
 * caller can run other SQL (the full-text side of a hybrid search) while the worker computes
 * the distances. The worker starts on the first query; should it fail, that query and every
 * later one are answered by `fallback` on the caller's thread instead.
 */
export class VectorSearcher {
  private worker: Worker | null = null;
  private failed = false;
  private next = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly file: string,
    private readonly fallback: (env: string, folder: string, scope: string, query: VectorQuery) => Scored[],
  ) {}

  search(env: string, folder: string, scope: string, query: VectorQuery): Promise<Scored[]> {
    const worker = this.started();
    if (!worker) return this.inThread(env, folder, scope, query);
    const id = this.next++;
    const ask: VectorAsk = { id, env, folder, scope, query };
    return new Promise<Scored[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage(ask);
    }).catch(() => this.inThread(env, folder, scope, query));
  }

  private async inThread(env: string, folder: string, scope: string, query: VectorQuery): Promise<Scored[]> {
    return this.fallback(env, folder, scope, query);
  }

  private started(): Worker | null {
    if (this.failed) return null;
    if (this.worker) return this.worker;
    try {
      const worker = startWorker(this.file);
      worker.unref();
      worker.on('message', (reply: VectorReply) => {
        const waiting = this.pending.get(reply.id);
        if (!waiting) return;
        this.pending.delete(reply.id);
        if (reply.hits) waiting.resolve(reply.hits);
        else waiting.reject(new Error(reply.error ?? 'vector search failed'));
      });
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', () => this.fail(new Error('the vector search worker stopped')));
      this.worker = worker;
      return worker;
    } catch {
      this.failed = true;
      return null;
    }
  }

  /** Every query waiting on a worker that is gone is answered by the fallback; later ones too. */
  private fail(error: Error): void {
    this.failed = true;
    this.worker = null;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.failed = true;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
