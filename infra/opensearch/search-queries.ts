import type { Client } from '@opensearch-project/opensearch';
import type { Scored, TextQuery, VectorQuery } from '../../projections/ports.js';
import { docId } from './mapping.js';
import { cosineDistance, textSearchBody, vectorSearchBody, vectorsSizeBody } from './search-dsl.js';
import type { VectorWidths } from './vector-widths.js';
import type { QueryBudget } from './query-budget.js';

type Hit = { _score?: number | null; _source?: unknown; sort?: unknown[] };

const keyOf = (hit: Hit): string => (hit._source as { key: string }).key;

/** The search side of the OpenSearch delivery index (the SearchQueries port, docs/decisions/0171). */
export class OpenSearchQueries {
  constructor(
    private readonly client: Client,
    private readonly docs: string,
    private readonly vectors: string,
    private readonly widths: VectorWidths,
    private readonly budget: QueryBudget,
  ) {}

  async searchText(env: string, folder: string, query: TextQuery): Promise<Scored[]> {
    const body = textSearchBody(env, folder, query);
    if (!body) return [];
    const response = await this.budget.within(this.client.search({ index: this.docs, body: body as never }, this.budget.options));
    return (response.body.hits.hits as Hit[]).map((hit) => ({ key: keyOf(hit), score: hit._score ?? Number(hit.sort?.[0] ?? 0) }));
  }

  /** Nearest documents: one k-NN query per field, each document at its nearest distance (as on SQLite). */
  async searchVectors(env: string, folder: string, query: VectorQuery): Promise<Scored[]> {
    if (query.fields.length === 0 || !(await this.widths.has(query.vector.length))) return [];
    const best = new Map<string, number>();
    for (const field of query.fields) {
      const response = await this.budget.within(this.client.search({ index: this.vectors, body: vectorSearchBody(env, folder, field, query) as never }, this.budget.options));
      for (const hit of response.body.hits.hits as Hit[]) {
        const distance = cosineDistance(hit._score ?? 0);
        best.set(keyOf(hit), Math.min(distance, best.get(keyOf(hit)) ?? Infinity));
      }
    }
    return [...best]
      .map(([key, score]) => ({ key, score }))
      .sort((a, b) => a.score - b.score || (a.key < b.key ? -1 : 1))
      .slice(0, query.limit);
  }

  async vectorsSize(env: string, folder: string, key: string): Promise<number> {
    const response = await this.client.search({ index: this.vectors, body: vectorsSizeBody(docId(env, folder, key)) as never });
    const aggregations = response.body.aggregations as { bytes?: { value?: number | null } } | undefined;
    return aggregations?.bytes?.value ?? 0;
  }
}
