import type { Position } from '../../commands/ports.js';
import type { SearchField } from '../../projections/search-fields.js';
import type { Scored, DeliveryDoc, Page, PageRequest, SearchIndex, SearchIndexTx } from '../../projections/ports.js';
import { effectiveSort, type DeliveryQuery } from '../../projections/delivery-query.js';
import { keysetQuery, referencesQuery, sortClauses, whereQuery } from '../../infra/opensearch/delivery-query-dsl.js';
import { toSource, type Source } from '../../infra/opensearch/mapping.js';

/**
 * A test model of the OpenSearch query DSL subset the adapter sends (bool, term, terms, range,
 * prefix, wildcard, nested, nested sorts with `missing`), evaluated over the adapter's own
 * flattened sources. It checks the AST → DSL translation against the reference evaluator where
 * no OpenSearch server is configured; the server itself is covered by the same contract suite
 * when OPENSEARCH_URL is set.
 */

type Q = Record<string, unknown>;
type Obj = Record<string, unknown>;

const bytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
const compare = (a: unknown, b: unknown): number => (typeof a === 'number' && typeof b === 'number' ? a - b : bytes(String(a), String(b)));

/** Sub-fields of the mapping's multi-fields (mapping.ts): each holds its parent's value (`values.s.w` is `values.s`). */
const MULTI_FIELDS: Readonly<Record<string, string>> = { 's.w': 's', 'f.w': 'f' };

/** The field's value in a source or a nested entry (`values.s` inside a `values` entry is `s`). */
function read(scope: Obj, field: string, prefix: string): unknown {
  const name = prefix && field.startsWith(`${prefix}.`) ? field.slice(prefix.length + 1) : field;
  return scope[MULTI_FIELDS[name] ?? name];
}

const spec = (body: unknown): { value: unknown; insensitive: boolean } =>
  body !== null && typeof body === 'object' && !Array.isArray(body) && 'value' in body
    ? { value: (body as Obj).value, insensitive: (body as Obj).case_insensitive === true }
    : { value: body, insensitive: false };

function wildcard(pattern: string, insensitive: boolean): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') source += (pattern[++i] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, insensitive ? 'is' : 's');
}

export function holds(q: Q, scope: Obj, prefix = ''): boolean {
  const [kind, body] = Object.entries(q)[0] as [string, unknown];
  const field = (): [string, unknown] => Object.entries(body as Obj)[0] as [string, unknown];
  switch (kind) {
    case 'match_all':
      return true;
    case 'match_none':
      return false;
    case 'bool': {
      const b = body as { filter?: Q[]; should?: Q[]; must_not?: Q[] };
      return (
        (b.filter ?? []).every((c) => holds(c, scope, prefix)) &&
        (b.should === undefined || b.should.some((c) => holds(c, scope, prefix))) &&
        !(b.must_not ?? []).some((c) => holds(c, scope, prefix))
      );
    }
    case 'term': {
      const [name, raw] = field();
      const { value, insensitive } = spec(raw);
      const actual = read(scope, name, prefix);
      if (actual === undefined || actual === null) return false;
      return insensitive ? String(actual).toLowerCase() === String(value).toLowerCase() : actual === value;
    }
    case 'terms': {
      const [name, values] = field();
      const actual = read(scope, name, prefix);
      return actual !== undefined && (values as unknown[]).includes(actual);
    }
    case 'range': {
      const [name, bounds] = field();
      const actual = read(scope, name, prefix);
      if (actual === undefined || actual === null) return false;
      const b = bounds as Record<string, unknown>;
      return (
        (b.gt === undefined || compare(actual, b.gt) > 0) &&
        (b.gte === undefined || compare(actual, b.gte) >= 0) &&
        (b.lt === undefined || compare(actual, b.lt) < 0) &&
        (b.lte === undefined || compare(actual, b.lte) <= 0)
      );
    }
    case 'prefix': {
      const [name, value] = field();
      const actual = read(scope, name, prefix);
      return typeof actual === 'string' && actual.startsWith(String(value));
    }
    case 'wildcard': {
      const [name, raw] = field();
      const { value, insensitive } = spec(raw);
      const actual = read(scope, name, prefix);
      return typeof actual === 'string' && wildcard(String(value), insensitive).test(actual);
    }
    case 'nested': {
      const { path, query } = body as { path: string; query: Q };
      const entries = (scope[path] as Obj[] | undefined) ?? [];
      return entries.some((entry) => holds(query, entry, path));
    }
    default:
      throw new Error(`the DSL model does not know ${kind}`);
  }
}

type Clause = { order: 'asc' | 'desc'; nested?: { path: string; filter: Q }; missing?: unknown };

function sortValue(source: Obj, name: string, clause: Clause): unknown {
  if (!clause.nested) return source[name];
  const entries = (source[clause.nested.path] as Obj[] | undefined) ?? [];
  const entry = entries.find((e) => holds(clause.nested!.filter, e, clause.nested!.path));
  return entry ? read(entry, name, clause.nested.path) : undefined;
}

export function sorter(clauses: readonly Q[]): (a: Obj, b: Obj) => number {
  const parsed = clauses.map((c) => {
    const [name, raw] = Object.entries(c)[0] as [string, unknown];
    return { name, clause: (typeof raw === 'string' ? { order: raw } : raw) as Clause };
  });
  return (a, b) => {
    for (const { name, clause } of parsed) {
      const desc = clause.order === 'desc';
      let x = sortValue(a, name, clause);
      let y = sortValue(b, name, clause);
      if (typeof clause.missing === 'number') {
        x ??= clause.missing;
        y ??= clause.missing;
      }
      if (x === undefined || y === undefined) {
        if (x === y) continue;
        const first = clause.missing === '_first';
        return (x === undefined) === first ? -1 : 1;
      }
      const c = compare(x, y);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  };
}

/** An in-memory SearchIndex that answers `query` by the DSL the OpenSearch adapter sends. */
export class DslModelIndex implements SearchIndex {
  private readonly docs = new Map<string, Source>();

  async get(env: string, folder: string, key: string): Promise<DeliveryDoc | null> {
    const doc = this.docs.get(`${env}|${folder}|${key}`);
    return doc && doc.data !== null ? doc : null;
  }

  async list(env: string, folder: string, page: PageRequest): Promise<Page> {
    return this.query(env, folder, { limit: page.limit, owners: page.owners });
  }

  async query(env: string, folder: string, query: DeliveryQuery): Promise<Page> {
    const sort = effectiveSort(query);
    const backward = query.before !== undefined;
    const cursor = query.before ?? query.after;
    const filter: Q[] = [{ term: { env } }, { term: { folder } }, { term: { published: true } }];
    if (query.where) filter.push(whereQuery(query.where));
    for (const join of query.joins ?? []) {
      const joined = [...this.docs.values()].filter((d) => d.env === env && d.folder === join.folder && d.published && (!join.where || holds(whereQuery(join.where), d)));
      filter.push(referencesQuery(join.field.join('.'), joined.map((d) => `${join.folder}::${d.key}`)));
    }
    if (cursor) filter.push(keysetQuery(sort, cursor, backward));
    const hits = [...this.docs.values()].filter((d) => holds({ bool: { filter } }, d)).sort(sorter(sortClauses(sort, backward)));
    const items = hits.slice(0, query.limit);
    return { items: backward ? items.reverse() : items, hasMore: hits.length > query.limit };
  }

  async unitOfWork(_consumer: string, _position: Position, work: (tx: SearchIndexTx) => Promise<void>): Promise<void> {
    await work({
      get: (env, folder, key) => Promise.resolve(this.docs.get(`${env}|${folder}|${key}`) ?? null),
      index: async (doc) => void this.docs.set(`${doc.env}|${doc.folder}|${doc.key}`, toSource(doc)),
      remove: async (env, folder, key) => void this.docs.delete(`${env}|${folder}|${key}`),
      removeFolder: async () => undefined,
      meta: async () => null,
      setMeta: async () => undefined,
      indexSearch: async () => undefined,
    });
  }

  // The search side is not part of this model (the query DSL only).
  private unsupported(): never {
    throw new Error('the DSL model answers query() only');
  }
  searchText = async (): Promise<Scored[]> => this.unsupported();
  searchVectors = async (): Promise<Scored[]> => this.unsupported();
  docsByKeys = async (): Promise<DeliveryDoc[]> => this.unsupported();
  searchFields = async (): Promise<SearchField[]> => [];
  vectorsSize = async (): Promise<number> => 0;

  async checkpoint(): Promise<Position> {
    return '';
  }

  async close(): Promise<void> {}
}
