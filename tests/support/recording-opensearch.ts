import type { Client } from '@opensearch-project/opensearch';

/** One request the adapter made: the client method's path and its parameters. */
export type Call = { readonly method: string; readonly params: Record<string, unknown> };

type Hit = { _score?: number; _source: Record<string, unknown> };

/**
 * A fake OpenSearch client that records every request and answers the minimum the adapter
 * reads: no index exists yet, mappings reflect put-mapping calls, searches answer the hits
 * queued with `reply` (empty otherwise), bulk writes succeed. The request bodies are what the
 * tests check against the documented query DSL.
 */
export class RecordingOpenSearch {
  readonly calls: Call[] = [];
  private readonly replies: Record<string, unknown>[] = [];
  private readonly properties = new Map<string, Record<string, unknown>>();

  /** The next search answers these hits (or this aggregation). */
  reply(hits: Hit[], aggregations?: Record<string, unknown>): void {
    this.replies.push({ hits: { hits }, ...(aggregations ? { aggregations } : {}) });
  }

  of(method: string): Record<string, unknown>[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.params);
  }

  private record(method: string, answer: (params: Record<string, unknown>) => unknown) {
    return async (params: Record<string, unknown>) => {
      this.calls.push({ method, params: structuredClone(params) });
      return { body: answer(params) };
    };
  }

  asClient(): Client {
    const fake = {
      indices: {
        exists: this.record('indices.exists', () => false),
        create: this.record('indices.create', () => ({ acknowledged: true })),
        getMapping: this.record('indices.getMapping', (p) => ({ [String(p.index)]: { mappings: { properties: this.properties.get(String(p.index)) ?? {} } } })),
        putMapping: this.record('indices.putMapping', (p) => {
          const index = String(p.index);
          this.properties.set(index, { ...(this.properties.get(index) ?? {}), ...((p.body as { properties: Record<string, unknown> }).properties ?? {}) });
          return { acknowledged: true };
        }),
      },
      get: this.record('get', () => ({ found: false })),
      mget: this.record('mget', () => ({ docs: [] })),
      search: this.record('search', () => this.replies.shift() ?? { hits: { hits: [] } }),
      bulk: this.record('bulk', () => ({ errors: false, items: [] })),
      deleteByQuery: this.record('deleteByQuery', () => ({ deleted: 0 })),
      index: this.record('index', () => ({ result: 'created' })),
      delete: this.record('delete', () => ({ result: 'deleted' })),
      close: async () => undefined,
    };
    return fake as unknown as Client;
  }
}
