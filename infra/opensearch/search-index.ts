import { Client, errors, type Types } from '@opensearch-project/opensearch';
import type { Position } from '../../commands/ports.js';
import { effectiveSort, type DeliveryQuery, type JoinFilter } from '../../projections/delivery-query.js';
import { DomainError } from '../../domain/errors.js';
import type { DeliveryDoc, Page, PageRequest, SearchIndex, SearchIndexTx, Scored, TextQuery, VectorQuery } from '../../projections/ports.js';
import { Mutex } from '../mutex.js';
import { LeaseLost } from '../../projections/lease.js';
import { activeFields, type SearchField } from '../../projections/search-fields.js';
import { BufferedWriter, emptyWrites, type UnitWrites } from './buffered-writer.js';
import { keysetQuery, referencesQuery, sortClauses, whereQuery } from './delivery-query-dsl.js';
import { CHECKPOINTS_MAPPING, DOCS_MAPPING, DOCS_SETTINGS, SEARCH_META_MAPPING, docId, toDoc, toSource, type Checkpoint, type Source } from './mapping.js';
import { ofFolder, vectorsOfDocs } from './search-dsl.js';
import { VECTORS_MAPPING, VECTORS_SETTINGS, searchTextSources, vectorId, vectorSource } from './search-mapping.js';
import { QueryBudget } from './query-budget.js';
import { OpenSearchQueries } from './search-queries.js';
import { VectorWidths } from './vector-widths.js';

export type OpenSearchIndexOptions = {
  /** Name of the documents index; checkpoints go to `<prefix>-checkpoints`, vectors to `<prefix>-vectors`. */
  readonly prefix?: string;
  /** How a unit of work's bulk write becomes visible to searches before its checkpoint is stored. */
  readonly refresh?: 'wait_for' | true;
  /** A client of one's own (tests record the requests with a fake one). */
  readonly client?: Client;
  /** The time budget of a list or search, in ms (QUERY_TIMEOUT_MS; docs/decisions/0379). */
  readonly queryTimeoutMs?: number;
};

/** Ids per delete-by-query request (a terms query holds at most 65,536). */
const DELETE_CHUNK = 10_000;

/** Most documents of a joined collection a join may match (one more fills the default result window of 10,000). */
const MAX_JOINED = 9_999;

const alreadyExists = (error: unknown): boolean =>
  error instanceof errors.ResponseError && error.body?.error?.type === 'resource_already_exists_exception';

/**
 * The production delivery index: one OpenSearch index of documents (`_id` env|folder|key, with
 * their full-text entries nested), one of their vectors (k-NN) and one of checkpoints. A unit of
 * work is buffered and written with one bulk request that waits for a refresh, then the checkpoint
 * is stored: whoever waits on the checkpoint sees the documents in searches.
 */
/** Where a checkpoint write left the document: the next write of its holder goes only over it. */
type Written = { readonly seqNo: number; readonly primaryTerm: number };

export class OpenSearchSearchIndex implements SearchIndex {
  private readonly client: Client;
  private readonly docs: string;
  private readonly checkpoints: string;
  private readonly searchMeta: string;
  private readonly vectors: string;
  private readonly widths: VectorWidths;
  private readonly queries: OpenSearchQueries;
  private readonly refresh: 'wait_for' | true;
  private readonly mutex = new Mutex();
  private readonly budget: QueryBudget;
  /** Each fenced consumer's lease epoch and the sequence number of its last checkpoint write (docs/decisions/0386). */
  private readonly fenced = new Map<string, Written & { readonly epoch: number }>();
  private ready: Promise<void> | undefined;

  constructor(url: string, options: OpenSearchIndexOptions = {}) {
    this.client = options.client ?? new Client({ node: url });
    // v4: payload strings also as wildcard fields (docs/decisions/0338); a new name rebuilds the index from the events.
    this.docs = options.prefix ?? 'cms-delivery-v4';
    this.checkpoints = `${this.docs}-checkpoints`;
    this.searchMeta = `${this.docs}-search-meta`;
    this.vectors = `${this.docs}-vectors`;
    this.refresh = options.refresh ?? 'wait_for';
    this.widths = new VectorWidths(this.client, this.vectors);
    this.budget = new QueryBudget(options.queryTimeoutMs);
    this.queries = new OpenSearchQueries(this.client, this.docs, this.vectors, this.widths, this.budget);
  }

  /** Makes the index unless it exists; answers whether it existed before. */
  private async create(index: string, mappings: Types.Common_Mapping.TypeMapping, settings: Record<string, unknown> = {}): Promise<boolean> {
    if ((await this.client.indices.exists({ index })).body) return true;
    return this.client.indices.create({ index, body: { mappings, settings } }).then(
      () => false,
      (error: unknown) => {
        if (!alreadyExists(error)) throw error;
        return true;
      },
    );
  }

  private ensure(): Promise<void> {
    this.ready ??= Promise.all([
      this.create(this.docs, DOCS_MAPPING, DOCS_SETTINGS),
      // A checkpoints index made before the lease epochs (docs/decisions/0386) gets its epoch field.
      this.create(this.checkpoints, CHECKPOINTS_MAPPING).then(async (existed) => {
        if (existed) await this.client.indices.putMapping({ index: this.checkpoints, body: CHECKPOINTS_MAPPING });
      }),
      this.create(this.searchMeta, SEARCH_META_MAPPING),
      this.create(this.vectors, VECTORS_MAPPING, VECTORS_SETTINGS),
    ])
      .then(() => this.widths.load())
      .catch((error: unknown) => {
        // A failed start is tried again by the next call.
        this.ready = undefined;
        throw error;
      });
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

  async searchText(env: string, folder: string, query: TextQuery): Promise<Scored[]> {
    await this.ensure();
    return this.queries.searchText(env, folder, query);
  }

  async searchVectors(env: string, folder: string, query: VectorQuery): Promise<Scored[]> {
    await this.ensure();
    return this.queries.searchVectors(env, folder, query);
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

  async vectorsSize(env: string, folder: string, key: string): Promise<number> {
    await this.ensure();
    return this.queries.vectorsSize(env, folder, key);
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
    const { body } = await this.budget.within(
      this.client.search(
        {
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
        },
        this.budget.options,
      ),
    );
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
    const { body } = await this.budget.within(
      this.client.search({ index: this.docs, body: { size: limit + 1, track_total_hits: false, query: { bool: { filter } }, sort: sortClauses(sort, backward) as never } }, this.budget.options),
    );
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
    const { body } = await this.budget.within(
      this.client.search({ index: this.docs, body: { size: MAX_JOINED + 1, track_total_hits: false, _source: ['key'], query: { bool: { filter } } } }, this.budget.options),
    );
    const hits = body.hits.hits;
    if (hits.length > MAX_JOINED) {
      throw new DomainError('validation_error', 'The join matches too many documents.', { join: [`${join.folder}: more than ${MAX_JOINED} documents match; narrow its where`] });
    }
    return hits.map((hit) => `${join.folder}::${(hit._source as { key: string }).key}`);
  }

  /** Vectors of re-indexed, unpublished or deleted documents go before the new ones are written. */
  private async dropVectors(ids: readonly string[]): Promise<void> {
    if (!this.widths.any) return;
    for (let at = 0; at < ids.length; at += DELETE_CHUNK) {
      const body = vectorsOfDocs(ids.slice(at, at + DELETE_CHUNK));
      await this.client.deleteByQuery({ index: this.vectors, refresh: true, conflicts: 'proceed', body: body as never });
    }
  }

  private async flush(writes: UnitWrites): Promise<void> {
    const { pending, searches } = writes;
    if (pending.size === 0) return;
    await this.dropVectors([...pending.keys()]);
    const body: Record<string, unknown>[] = [];
    for (const [id, doc] of pending) {
      const entries = doc ? searches.get(id) : undefined;
      if (doc) body.push({ index: { _index: this.docs, _id: id } }, toSource(doc, searchTextSources(entries?.texts ?? [])));
      else body.push({ delete: { _index: this.docs, _id: id } });
      for (const vector of entries?.vectors ?? []) {
        await this.widths.ensure(vector.vector.length);
        body.push({ index: { _index: this.vectors, _id: vectorId(id, vector) } }, vectorSource(id, doc!.env, doc!.folder, doc!.key, vector));
      }
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
      const writes = emptyWrites();
      await work(new BufferedWriter(writes, this.fetch, this.loadMeta));
      for (const [id, value] of writes.meta) {
        if (value === null) await this.client.delete({ index: this.searchMeta, id }, { ignore: [404] });
        else await this.client.index({ index: this.searchMeta, id, body: { value: JSON.stringify(value) } });
      }
      for (const [env, folder] of writes.cleared.values()) {
        await this.client.deleteByQuery({
          index: [this.docs, this.vectors],
          refresh: true,
          conflicts: 'proceed',
          body: ofFolder(env, folder) as never,
        });
      }
      await this.flush(writes);
      await this.saveCheckpoint(consumer, position);
    });
  }

  /**
   * The checkpoint of a fenced consumer is written only over its own last write (OpenSearch's
   * optimistic concurrency, `if_seq_no`): once a successor fenced it, the write is refused and the
   * holder gets LeaseLost. Its documents are written by then (no transaction spans them); the
   * successor applies the same events again from the checkpoint, which leaves the same documents.
   */
  private async saveCheckpoint(consumer: string, position: Position): Promise<void> {
    const held = this.fenced.get(consumer);
    if (held === undefined) {
      await this.client.index({ index: this.checkpoints, id: consumer, body: { position } satisfies Checkpoint });
      return;
    }
    this.fenced.set(consumer, { epoch: held.epoch, ...(await this.writeOver(consumer, { position, epoch: held.epoch }, held)) });
  }

  /** Marks the checkpoint with `epoch` (refused when a later one did) and writes with it from now on. */
  async fence(consumer: string, epoch: number): Promise<void> {
    await this.ensure();
    await this.mutex.run(async () => {
      const { body } = await this.client.get({ index: this.checkpoints, id: consumer }, { ignore: [404] });
      const stored = body.found ? (body._source as Checkpoint) : null;
      if ((stored?.epoch ?? 0) > epoch) throw new LeaseLost(consumer, epoch, stored?.epoch ?? null);
      const read = body.found ? { seqNo: body._seq_no as number, primaryTerm: body._primary_term as number } : null;
      this.fenced.set(consumer, { epoch, ...(await this.writeOver(consumer, { position: stored?.position ?? '', epoch }, read)) });
    });
  }

  /** Writes the checkpoint only over `last` (none: only where there is none yet); 409 from the server is LeaseLost. */
  private async writeOver(consumer: string, checkpoint: Checkpoint & { epoch: number }, last: Written | null): Promise<Written> {
    const unchanged = last === null ? { op_type: 'create' as const } : { if_seq_no: last.seqNo, if_primary_term: last.primaryTerm };
    try {
      const { body } = await this.client.index({ index: this.checkpoints, id: consumer, body: checkpoint, ...unchanged });
      return { seqNo: body._seq_no, primaryTerm: body._primary_term };
    } catch (error) {
      if (error instanceof errors.ResponseError && error.meta.statusCode === 409) throw new LeaseLost(consumer, checkpoint.epoch);
      throw error;
    }
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
