import { Client, errors, type Types } from '@opensearch-project/opensearch';
import type { Position } from '../../commands/ports.js';
import type { DeliveryQuery } from '../../projections/delivery-query.js';
import type { DeliveryDoc, Page, PageRequest, SearchIndex, SearchIndexTx } from '../../projections/ports.js';
import { Mutex } from '../mutex.js';
import { CHECKPOINTS_MAPPING, DOCS_MAPPING, docId, toDoc, toSource, type Checkpoint, type Source } from './mapping.js';

export type OpenSearchIndexOptions = {
  /** Name of the documents index; checkpoints go to `<prefix>-checkpoints`. */
  readonly prefix?: string;
  /** How a unit of work's bulk write becomes visible to searches before its checkpoint is stored. */
  readonly refresh?: 'wait_for' | true;
};

/** Writes of one unit of work by document id: the document to index, or null to delete it. */
type Pending = Map<string, DeliveryDoc | null>;

/** Collections whose documents are all removed (by query, before the bulk write), as `[env, folder]`. */
type Cleared = Map<string, readonly [string, string]>;

class BufferedWriter implements SearchIndexTx {
  constructor(
    private readonly pending: Pending,
    private readonly fetch: (id: string) => Promise<DeliveryDoc | null>,
    private readonly cleared: Cleared = new Map(),
  ) {}

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
  private readonly refresh: 'wait_for' | true;
  private readonly mutex = new Mutex();
  private ready: Promise<void> | undefined;

  constructor(url: string, options: OpenSearchIndexOptions = {}) {
    this.client = new Client({ node: url });
    this.docs = options.prefix ?? 'cms-delivery';
    this.checkpoints = `${this.docs}-checkpoints`;
    this.refresh = options.refresh ?? 'wait_for';
  }

  private async create(index: string, mappings: Types.Common_Mapping.TypeMapping): Promise<void> {
    if ((await this.client.indices.exists({ index })).body) return;
    await this.client.indices.create({ index, body: { mappings } }).catch((error: unknown) => {
      if (!alreadyExists(error)) throw error;
    });
  }

  private ensure(): Promise<void> {
    this.ready ??= Promise.all([this.create(this.docs, DOCS_MAPPING), this.create(this.checkpoints, CHECKPOINTS_MAPPING)]).then(
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

  async query(_env: string, _folder: string, _query: DeliveryQuery): Promise<Page> {
    // The translation of the query AST to the OpenSearch DSL follows in the next commit.
    throw new Error('OpenSearch delivery queries are not translated yet');
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
      await work(new BufferedWriter(pending, this.fetch, cleared));
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
