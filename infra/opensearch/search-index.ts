import { Client, errors, type Types } from '@opensearch-project/opensearch';
import type { Position } from '../../commands/ports.js';
import { effectiveSort, type DeliveryQuery, type JoinFilter } from '../../projections/delivery-query.js';
import { DomainError } from '../../domain/errors.js';
import type { DeliveryDoc, Page, PageRequest, SearchIndex, SearchIndexTx } from '../../projections/ports.js';
import { Mutex } from '../mutex.js';
import { activeFields, type SearchField } from '../../projections/search-fields.js';
import type { Scored } from '../../projections/search-ports.js';
import { keysetQuery, referencesQuery, sortClauses, whereQuery } from './delivery-query-dsl.js';
import { CHECKPOINTS_MAPPING, DOCS_MAPPING, DOCS_SETTINGS, SEARCH_META_MAPPING, docId, toDoc, toSource, type Checkpoint, type Source } from './mapping.js';

export type OpenSearchIndexOptions = {
  /** Name of the documents index; checkpoints go to `<prefix>-checkpoints`. */
  readonly prefix?: string;
  /** How a unit of work's bulk write becomes visible to searches before its checkpoint is stored. */
  readonly refresh?: 'wait_for' | true;
};

/** Most documents of a joined collection a join may match (one more fills the default result window of 10,000). */
const MAX_JOINED = 9_999;

/** Writes of one unit of work by document id: the document to index, or null to delete it. */
type Pending = Map<string, DeliveryDoc | null>;

/** Search metadata written by a unit of work: id to JSON value, null to delete. */
type SearchMeta = Map<string, unknown>;

/** Collections whose documents are all removed (by query, before the bulk write), as `[env, folder]`. */
type Cleared = Map<string, readonly [string, string]>;

class BufferedWriter implements SearchIndexTx {
  constructor(
    private readonly pending: Pending,
    private readonly fetch: (id: string) => Promise<DeliveryDoc | null>,
    private readonly cleared: Cleared = new Map(),
    private readonly meta_: SearchMeta = new Map(),
    private readonly loadMeta: (id: string) => Promise<unknown> = async () => null,
  ) {}

  async meta(id: string): Promise<unknown> {
    return this.meta_.has(id) ? this.meta_.get(id) : this.loadMeta(id);
  }

  async setMeta(id: string, value: unknown): Promise<void> {
    this.meta_.set(id, value ?? null);
  }

  /** Full text and vectors are not kept on OpenSearch yet (docs/decisions/0051): `_search` answers 501 there. */
  async indexSearch(): Promise<void> {}

  async get(env: string, folder: string, key: string): Promise<DeliveryDoc | null> {
    const id = docId(env, folder, key);
    if (this.pending.has(id)) return this.pending.get(id) ?? null;
    return this.cleared.has(docId(env, folder, '')) ? null : this.fetch(id);
  }

  async removeFolder(env: string, folder: string): Promise<void> {
    const prefix = docId(env, folder, '');
    this.cleared.set(prefix, [env, folder]);
    for (const id of this.pending.keys()) if (id.startsWith(prefix)) this.pending.set(id, null);
  }

  async index(doc: DeliveryDoc): Promise<void> {
    this.pending.set(docId(doc.env, doc.folder, doc.key), doc);
  }

  async remove(env: string, folder: string, key: string): Promise<void> {
    this.pending.set(docId(env, folder, key), null);
  }
}

const alreadyExists = (error: unknown): boolean =>
  error instanceof errors.ResponseError && error.body?.error?.type === 'resource_already_exists_exception';

/**
 * The production delivery index: one OpenSearch index of documents (`_id` env|folder|key)
 * and one of checkpoints. A unit of work is buffered and written with one bulk request that
 * waits for a refresh, then the checkpoint is stored: whoever waits on the checkpoint sees the
 * documents in searches.
 */
export class OpenSearchSearchIndex implements SearchIndex {
  private readonly client: Client;
  private readonly docs: string;
  private readonly checkpoints: string;
  private readonly searchMeta: string;
  private readonly refresh: 'wait_for' | true;
  private readonly mutex = new Mutex();
  private ready: Promise<void> | undefined;

  constructor(url: string, options: OpenSearchIndexOptions = {}) {
    this.client = new Client({ node: url });
    // v2: documents carry their flattened payload for queries; a new name rebuilds the index from the events.
    this.docs = options.prefix ?? 'cms-delivery-v2';
    this.checkpoints = `${this.docs}-checkpoints`;
    this.searchMeta = `${this.docs}-search-meta`;
    this.refresh = options.refresh ?? 'wait_for';
  }

  private async create(index: string, mappings: Types.Common_Mapping.TypeMapping, settings: Record<string, unknown> = {}): Promise<void> {
    if ((await this.client.indices.exists({ index })).body) return;
    await this.client.indices.create({ index, body: { mappings, settings } }).catch((error: unknown) => {
      if (!alreadyExists(error)) throw error;
    });
  }

  private ensure(): Promise<void> {
    this.ready ??= Promise.all([
      this.create(this.docs, DOCS_MAPPING, DOCS_SETTINGS),
      this.create(this.checkpoints, CHECKPOINTS_MAPPING),
      this.create(this.searchMeta, SEARCH_META_MAPPING),
    ]).then(
      () => undefined,
      (error: unknown) => {
        this.ready = undefined;
        throw error;
      },
    );
    return this.ready;
  }

  /** A stored document by id, published or not (GET is real-time: no refresh needed). */
  private readonly fetch = async (id: string): Promise<DeliveryDoc | null> => {
    const { body } = await this.client.get({ index: this.docs, id }, { ignore: [404] });
    return body.found ? toDoc(body._source as Source) : null;
  };

  private readonly loadMeta = async (id: string): Promise<unknown> => {
    const { body } = await this.client.get({ index: this.searchMeta, id }, { ignore: [404] });
    return body.found ? JSON.parse((body._source as { value: string }).value) : null;
  };

  async searchText(): Promise<Scored[]> {
    throw new DomainError('not_implemented', 'Full-text search is not available on the OpenSearch index yet.', null, 501);
  }

  async searchVectors(): Promise<Scored[]> {
    throw new DomainError('not_implemented', 'Vector search is not available on the OpenSearch index yet.', null, 501);
  }

  async docsByKeys(env: string, folder: string, keys: readonly string[]): Promise<DeliveryDoc[]> {
    await this.ensure();
    if (keys.length === 0) return [];
    const { body } = await this.client.mget({ index: this.docs, body: { ids: keys.map((key) => docId(env, folder, key)) } });
    const docs = (body.docs as { found?: boolean; _source?: Source }[]).filter((d) => d.found && d._source).map((d) => toDoc(d._source as Source));
    return docs.filter((doc) => doc.data !== null);
  }

  async searchFields(env: string, folder: string): Promise<SearchField[]> {
    await this.ensure();
    return activeFields(this.loadMeta, env, folder);
  }

  async vectorsSize(): Promise<number> {
    return 0;
  }

  async get(env: string, folder: string, key: string): Promise<DeliveryDoc | null> {
    await this.ensure();
    const doc = await this.fetch(docId(env, folder, key));
    return doc && doc.data !== null ? doc : null;
  }

  async list(env: string, folder: string, page: PageRequest): Promise<Page> {
    await this.ensure();
    const limit = Math.max(1, page.limit);
    const order = page.before ? 'desc' : 'asc';
    const cursor = page.before ?? page.after;
    const { body } = await this.client.search({
      index: this.docs,
      body: {
        size: limit + 1,
        track_total_hits: false,
        query: {
          bool: {
            filter: [{ term: { env } }, { term: { folder } }, { term: { published: true } }, ...(page.owners ? [{ terms: { owner: [...page.owners] } }] : [])],
          },
        },
        sort: [{ created_at: order }, { key: order }],
        ...(cursor ? { search_after: [cursor.created_at, cursor.key] } : {}),
      },
    });
    const hits = body.hits.hits;
    const items = hits.slice(0, limit).map((hit) => toDoc(hit._source as Source));
    return { items: page.before ? items.reverse() : items, hasMore: hits.length > limit };
  }

  async query(env: string, folder: string, query: DeliveryQuery): Promise<Page> {
    await this.ensure();
    const limit = Math.max(1, query.limit);
    const backward = query.before !== undefined;
    const cursor = query.before ?? query.after;
    const sort = effectiveSort(query);
    const filter: Record<string, unknown>[] = [{ term: { env } }, { term: { folder } }, { term: { published: true } }];
    if (query.owners) filter.push({ terms: { owner: [...query.owners] } });
    if (query.where) filter.push(whereQuery(query.where));
    for (const join of query.joins ?? []) filter.push(referencesQuery(join.field.join('.'), await this.joinedRefs(env, join)));
    if (cursor) filter.push(keysetQuery(sort, cursor, backward));
    const { body } = await this.client.search({
      index: this.docs,
      body: { size: limit + 1, track_total_hits: false, query: { bool: { filter } }, sort: sortClauses(sort, backward) as never },
    });
    const hits = body.hits.hits;
    const items = hits.slice(0, limit).map((hit) => toDoc(hit._source as Source));
    return { items: backward ? items.reverse() : items, hasMore: hits.length > limit };
  }

  /**
   * A join runs in two steps here (OpenSearch has no join across documents): the joined
   * collection's matching keys, then a terms filter on the reference field. More than
   * MAX_JOINED matching documents is refused rather than answered wrong.
   */
  private async joinedRefs(env: string, join: JoinFilter): Promise<string[]> {
    const filter: Record<string, unknown>[] = [{ term: { env } }, { term: { folder: join.folder } }, { term: { published: true } }];
    if (join.where) filter.push(whereQuery(join.where));
    const { body } = await this.client.search({
      index: this.docs,
      body: { size: MAX_JOINED + 1, track_total_hits: false, _source: ['key'], query: { bool: { filter } } },
    });
    const hits = body.hits.hits;
    if (hits.length > MAX_JOINED) {
      throw new DomainError('validation_error', 'The join matches too many documents.', { join: [`${join.folder}: more than ${MAX_JOINED} documents match; narrow its where`] });
    }
    return hits.map((hit) => `${join.folder}::${(hit._source as { key: string }).key}`);
  }

  private async flush(pending: Pending): Promise<void> {
    if (pending.size === 0) return;
    const body: Record<string, unknown>[] = [];
    for (const [id, doc] of pending) {
      if (doc) body.push({ index: { _index: this.docs, _id: id } }, toSource(doc));
      else body.push({ delete: { _index: this.docs, _id: id } });
    }
    const response = await this.client.bulk({ body, refresh: this.refresh });
    // A delete of a missing document answers "not_found" without an error: that is fine.
    const failed = response.body.items.flatMap((item) => Object.values(item)).find((result) => result?.error);
    if (failed?.error) throw new Error(`OpenSearch bulk write failed: ${failed.error.type}: ${failed.error.reason ?? ''}`);
    if (response.body.errors) throw new Error('OpenSearch bulk write failed');
  }

  async unitOfWork(consumer: string, position: Position, work: (tx: SearchIndexTx) => Promise<void>): Promise<void> {
    await this.mutex.run(async () => {
      await this.ensure();
      const pending: Pending = new Map();
      const cleared: Cleared = new Map();
      const meta: SearchMeta = new Map();
      await work(new BufferedWriter(pending, this.fetch, cleared, meta, this.loadMeta));
      for (const [id, value] of meta) {
        if (value === null) await this.client.delete({ index: this.searchMeta, id }, { ignore: [404] });
        else await this.client.index({ index: this.searchMeta, id, body: { value: JSON.stringify(value) } });
      }
      for (const [env, folder] of cleared.values()) {
        await this.client.deleteByQuery({
          index: this.docs,
          refresh: true,
          conflicts: 'proceed',
          body: { query: { bool: { filter: [{ term: { env } }, { term: { folder } }] } } },
        });
      }
      await this.flush(pending);
      const checkpoint: Checkpoint = { position };
      await this.client.index({ index: this.checkpoints, id: consumer, body: checkpoint });
    });
  }

  async checkpoint(consumer: string): Promise<Position> {
    await this.ensure();
    const { body } = await this.client.get({ index: this.checkpoints, id: consumer }, { ignore: [404] });
    return body.found ? (body._source as Checkpoint).position : '';
  }

  async close(): Promise<void> {
    await this.mutex.run(() => this.client.close());
  }
}
