import type { Client } from '@opensearch-project/opensearch';
import { vectorField, vectorFieldMapping, widthsOf } from './search-mapping.js';

/**
 * The vector widths the vectors index has a `knn_vector` field for. A width is added to the
 * mapping the first time a vector of it is stored; another process may have added one, so an
 * unknown width is looked up once more before a search answers "no such vectors".
 */
export class VectorWidths {
  private readonly known = new Set<number>();

  constructor(
    private readonly client: Client,
    private readonly index: string,
  ) {}

  /** Whether any vector was ever stored (else there is nothing to delete). */
  get any(): boolean {
    return this.known.size > 0;
  }

  async load(): Promise<void> {
    const { body } = await this.client.indices.getMapping({ index: this.index });
    const mappings = Object.values(body as Record<string, { mappings?: { properties?: Record<string, unknown> } }>);
    for (const mapping of mappings) for (const width of widthsOf(mapping.mappings?.properties)) this.known.add(width);
  }

  async has(dims: number): Promise<boolean> {
    if (!this.known.has(dims)) await this.load();
    return this.known.has(dims);
  }

  async ensure(dims: number): Promise<void> {
    if (this.known.has(dims)) return;
    if (!Number.isInteger(dims) || dims < 1 || dims > 16_000) throw new Error(`vector width ${dims} is not supported`);
    await this.client.indices.putMapping({ index: this.index, body: { properties: { [vectorField(dims)]: vectorFieldMapping(dims) } } as never });
    this.known.add(dims);
  }
}
