import { errors, type Client } from '@opensearch-project/opensearch';
import { distance } from 'fastest-levenshtein';
import { holds, sorter } from './opensearch-dsl-model.js';

/**
 * An in-memory model of the OpenSearch requests the delivery index adapter sends, so that the
 * real adapter runs the SearchIndex contract suites without a server: indices and mappings,
 * get / mget / index / delete / bulk / delete-by-query, and searches with filters (the DSL model),
 * sorts and `search_after`, BM25 over nested text entries (`match` with fuzziness, `match_phrase`,
 * `nested` with `score_mode: sum`), `knn` with a filter (cosine, scored (1 + cos) / 2), and `sum`
 * aggregations. It is a model of the documented behaviour, not OpenSearch: the contract suite
 * against a real server (OPENSEARCH_URL) stays the reference.
 */

type Obj = Record<string, unknown>;
type Q = Record<string, unknown>;

const K1 = 1.2;
const B = 0.75;

/** The adapter's analyzer: runs of letters and digits, lower case, diacritics folded. */
const tokens = (text: string): string[] => (text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** Text statistics of one field over every nested entry of an index (BM25's N, df, average length). */
class FieldStats {
  entries = 0;
  length = 0;
  readonly df = new Map<string, number>();
  add(text: string): void {
    const words = tokens(text);
    this.entries += 1;
    this.length += words.length;
    for (const word of new Set(words)) this.df.set(word, (this.df.get(word) ?? 0) + 1);
  }
  idf(term: string): number {
    const n = this.df.get(term) ?? 0;
    return Math.log(1 + (this.entries - n + 0.5) / (n + 0.5));
  }
  bm25(term: string, words: readonly string[]): number {
    const tf = words.filter((w) => w === term).length;
    if (tf === 0) return 0;
    const avg = this.length / Math.max(1, this.entries);
    return (this.idf(term) * tf) / (tf + K1 * (1 - B + (B * words.length) / avg));
  }
  /** Indexed terms a query token matches: itself, or within `fuzziness` edits keeping `prefix` characters. */
  expand(token: string, fuzziness: number, prefix: number, max: number): string[] {
    if (fuzziness === 0) return [token];
    const near = [...this.df.keys()]
      .filter((t) => t.slice(0, prefix) === token.slice(0, prefix))
      .map((t) => [t, distance(t, token)] as const)
      .filter(([, d]) => d <= fuzziness)
      .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
    return near.slice(0, max).map(([t]) => t);
  }
}

class Scorer {
  private readonly stats = new Map<string, FieldStats>();
  constructor(private readonly sources: readonly Obj[]) {}

  private statsOf(path: string, field: string): FieldStats {
    const key = `${path}.${field}`;
    let stats = this.stats.get(key);
    if (!stats) {
      stats = new FieldStats();
      for (const source of this.sources) for (const entry of (source[path] as Obj[] | undefined) ?? []) if (typeof entry[field] === 'string') stats.add(entry[field] as string);
      this.stats.set(key, stats);
    }
    return stats;
  }

  /** The score of a query on a document or nested entry; null when it does not match. */
  score(q: Q, scope: Obj, prefix = ''): number | null {
    const [kind, body] = Object.entries(q)[0] as [string, Obj];
    if (kind === 'bool') {
      const { filter = [], must = [], should = [], must_not: mustNot = [], minimum_should_match: msm } = body as Record<string, Q[]> & { minimum_should_match?: number };
      if (!filter.every((c) => holds(c, scope, prefix)) || mustNot.some((c) => holds(c, scope, prefix))) return null;
      let total = 0;
      for (const clause of must) {
        const s = this.score(clause, scope, prefix);
        if (s === null) return null;
        total += s;
      }
      const matched = should.map((c) => this.score(c, scope, prefix)).filter((s): s is number => s !== null);
      const needed = msm ?? (must.length === 0 && filter.length === 0 && should.length > 0 ? 1 : 0);
      if (matched.length < needed) return null;
      return total + matched.reduce((a, b) => a + b, 0);
    }
    if (kind === 'nested') {
      const { path, query, score_mode: mode } = body as { path: string; query: Q; score_mode?: string };
      const scores = ((scope[path] as Obj[] | undefined) ?? []).map((entry) => this.score(query, entry, path)).filter((s): s is number => s !== null);
      if (scores.length === 0) return null;
      if (mode !== 'sum') throw new Error(`the model scores nested score_mode sum only, not ${mode}`);
      return scores.reduce((a, b) => a + b, 0);
    }
    if (kind === 'match' || kind === 'match_phrase') {
      const [name, raw] = Object.entries(body)[0] as [string, unknown];
      const options = (typeof raw === 'string' ? { query: raw } : raw) as { query: string; fuzziness?: number; prefix_length?: number; max_expansions?: number };
      const field = name.slice(prefix.length + 1);
      const text = scope[field];
      if (typeof text !== 'string') return null;
      const words = tokens(text);
      const stats = this.statsOf(prefix, field);
      const asked = tokens(options.query);
      if (kind === 'match_phrase') {
        const at = words.findIndex((_, i) => asked.every((t, j) => words[i + j] === t));
        return at < 0 || asked.length === 0 ? null : asked.reduce((sum, t) => sum + stats.bm25(t, words), 0);
      }
      let total = 0;
      let any = false;
      for (const token of asked) {
        for (const term of stats.expand(token, options.fuzziness ?? 0, options.prefix_length ?? 0, options.max_expansions ?? 50)) {
          const s = stats.bm25(term, words);
          if (s > 0) {
            any = true;
            total += s;
          }
        }
      }
      return any ? total : null;
    }
    return holds(q, scope, prefix) ? 0 : null;
  }
}

const cosine = (a: readonly number[], b: readonly number[]): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    dot += x * b[i]!;
    na += x * x;
    nb += b[i]! * b[i]!;
  });
  return dot / Math.sqrt(na * nb);
};

type Hit = { _id: string; _score: number | null; _source: Obj; sort?: unknown[] };

export class OpenSearchModel {
  private readonly indices = new Map<string, { docs: Map<string, Obj>; properties: Obj; settings: unknown }>();
  /** The sequence number of each document's last `index` (`index/id`). */
  private readonly seqs = new Map<string, number>();
  private lastSeq = 0;
  /**
   * How long the server takes to answer a search, in ms (0: at once). A request whose
   * `requestTimeout` is shorter fails as the client fails it then: a TimeoutError after that time.
   */
  searchLatencyMs = 0;

  /** A search answer as the client gives it, after searchLatencyMs or its requestTimeout. */
  private answerAfterLatency<T>(body: T, options?: { requestTimeout?: number }): Promise<{ body: T }> {
    const latency = this.searchLatencyMs;
    if (latency === 0) return Promise.resolve({ body });
    const timeout = options?.requestTimeout;
    if (timeout !== undefined && timeout < latency) {
      return new Promise((_, reject) => setTimeout(() => reject(new errors.TimeoutError('Request timed out', null as never)), timeout));
    }
    return new Promise((resolve) => setTimeout(() => resolve({ body }), latency));
  }

  private index(name: string) {
    let index = this.indices.get(name);
    if (!index) {
      index = { docs: new Map(), properties: {}, settings: {} };
      this.indices.set(name, index);
    }
    return index;
  }

  private search(name: string, body: Obj): Obj {
    const docs = [...this.index(name).docs.entries()];
    const size = (body.size as number | undefined) ?? 10;
    const query = body.query as Q | undefined;
    const scorer = new Scorer(docs.map(([, source]) => source));
    let hits: Hit[];
    if (query && 'knn' in query) {
      const [field, { vector, k, filter }] = Object.entries(query.knn as Obj)[0] as [string, { vector: number[]; k: number; filter?: Q }];
      if (!(field in this.index(name).properties)) throw new Error(`the model has no knn_vector field ${field}`);
      hits = docs
        .filter(([, s]) => Array.isArray(s[field]) && (!filter || holds(filter, s)))
        .map(([id, s]) => ({ _id: id, _score: (1 + cosine(vector, s[field] as number[])) / 2, _source: s }))
        .sort((a, b) => b._score! - a._score!)
        .slice(0, k);
    } else {
      hits = docs
        .map(([id, s]) => ({ _id: id, _score: query ? scorer.score(query, s) : 0, _source: s }))
        .filter((h): h is Hit & { _score: number } => h._score !== null);
      const clauses = (body.sort as Q[] | undefined) ?? [];
      const byScore = clauses.length > 0 && Object.keys(clauses[0]!)[0] === '_score';
      const rest = byScore ? clauses.slice(1) : clauses;
      const compare = sorter(rest);
      hits.sort((a, b) => (byScore ? b._score! - a._score! : 0) || compare(a._source, b._source));
      const names = rest.map((c) => Object.keys(c)[0]!);
      for (const hit of hits) hit.sort = names.map((n) => hit._source[n]);
      const after = body.search_after as unknown[] | undefined;
      if (after) {
        const at = hits.findIndex((h) => compare(h._source, Object.fromEntries(names.map((n, i) => [n, after[i]]))) > 0);
        hits = at < 0 ? [] : hits.slice(at);
      }
    }
    const aggs = body.aggs as Record<string, { sum: { field: string } }> | undefined;
    const aggregations = aggs
      ? Object.fromEntries(Object.entries(aggs).map(([n, a]) => [n, { value: hits.reduce((sum, h) => sum + Number(h._source[a.sum.field] ?? 0), 0) }]))
      : undefined;
    return { hits: { hits: hits.slice(0, size) }, ...(aggregations ? { aggregations } : {}) };
  }

  private deleteWhere(names: string | string[], query: Q): void {
    for (const name of [names].flat()) {
      const docs = this.index(name).docs;
      for (const [id, source] of docs) if (holds(query, source)) docs.delete(id);
    }
  }

  asClient(): Client {
    const ok = <T>(body: T) => Promise.resolve({ body });
    const fake = {
      indices: {
        exists: ({ index }: { index: string }) => ok(this.indices.has(index)),
        create: ({ index, body }: { index: string; body: { mappings: { properties?: Obj }; settings: unknown } }) => {
          const created = this.index(index);
          Object.assign(created.properties, body.mappings.properties ?? {});
          created.settings = body.settings;
          return ok({ acknowledged: true });
        },
        getMapping: ({ index }: { index: string }) => ok({ [index]: { mappings: { properties: this.index(index).properties } } }),
        putMapping: ({ index, body }: { index: string; body: { properties: Obj } }) => {
          Object.assign(this.index(index).properties, body.properties);
          return ok({ acknowledged: true });
        },
      },
      get: ({ index, id }: { index: string; id: string }) => {
        const source = this.index(index).docs.get(id);
        return ok(source ? { found: true, _source: structuredClone(source), _seq_no: this.seqs.get(`${index}/${id}`) ?? 0, _primary_term: 1 } : { found: false });
      },
      mget: ({ index, body }: { index: string; body: { ids: string[] } }) =>
        ok({ docs: body.ids.map((id) => (this.index(index).docs.has(id) ? { found: true, _source: structuredClone(this.index(index).docs.get(id)) } : { found: false })) }),
      // Optimistic concurrency as the server has it: `if_seq_no` must name the document's last write, `op_type: create` finds none.
      index: ({ index, id, body, if_seq_no, op_type }: { index: string; id: string; body: Obj; if_seq_no?: number; op_type?: 'create' }) => {
        const docs = this.index(index).docs;
        const seq = this.seqs.get(`${index}/${id}`);
        if ((op_type === 'create' && docs.has(id)) || (if_seq_no !== undefined && if_seq_no !== seq)) {
          return Promise.reject(new errors.ResponseError({ body: { error: { type: 'version_conflict_engine_exception' } }, statusCode: 409, headers: {}, warnings: null, meta: {} as never }));
        }
        docs.set(id, structuredClone(body));
        this.seqs.set(`${index}/${id}`, (this.lastSeq += 1));
        return ok({ result: 'created', _seq_no: this.lastSeq, _primary_term: 1 });
      },
      delete: ({ index, id }: { index: string; id: string }) => {
        this.index(index).docs.delete(id);
        return ok({ result: 'deleted' });
      },
      bulk: ({ body }: { body: Obj[] }) => {
        const items: Obj[] = [];
        for (let i = 0; i < body.length; i++) {
          const [action, meta] = Object.entries(body[i]!)[0] as [string, { _index: string; _id: string }];
          if (action === 'index') this.index(meta._index).docs.set(meta._id, structuredClone(body[++i]!));
          else if (action === 'delete') this.index(meta._index).docs.delete(meta._id);
          else throw new Error(`the model does not know the bulk action ${action}`);
          items.push({ [action]: { _id: meta._id, status: 200 } });
        }
        return ok({ errors: false, items });
      },
      deleteByQuery: ({ index, body }: { index: string | string[]; body: { query: Q } }) => {
        this.deleteWhere(index, body.query);
        return ok({ deleted: 0 });
      },
      search: ({ index, body }: { index: string; body: Obj }, options?: { requestTimeout?: number }) => this.answerAfterLatency(structuredClone(this.search(index, body)), options),
      close: () => Promise.resolve(),
    };
    return fake as unknown as Client;
  }
}
