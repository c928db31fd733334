/**
 * Delivery answers kept as the bytes they were served with, with their ETag and surrogate
 * keys (docs/decisions/0131): the delivery pipeline's answer cache, asked after the caller is
 * authenticated and authorized (docs/decisions/0370). A later identical read by a caller who
 * reads every collection of the API is a lookup and a write of those bytes. An answer is dropped as soon as anything it was built from changes: each entry
 * names its dependencies (the environment, and the documents and collections it holds), and
 * the delivery projection and the routing table evict by them.
 *
 * A fill races with an eviction when the answer was built from what the eviction replaced:
 * every eviction moves `generation` on, and a fill admitted under an older generation is
 * thrown away instead of stored.
 */

export type ServedAnswer = {
  readonly body: Buffer;
  readonly etag: string;
  readonly surrogateKeys: string;
};

export type ServedEntry = ServedAnswer & { readonly deps: readonly string[] };

/** An answer the pipeline may remember once it is computed: where, as of which generation, and what it depends on. */
export type Admission = {
  readonly cacheKey: string;
  readonly generation: number;
  /** Dependencies every answer of this address has (the environment; the collection for a list). */
  readonly deps: readonly string[];
  /** Surrogate keys not to depend on (a get-one does not change when its collection gains a document). */
  readonly ignore: ReadonlySet<string>;
};

export type ServedCacheLimits = { readonly maxEntries: number; readonly maxBytes: number };

/** Bounds of the service's memory budget at 100,000 resources (docs/decisions/0221). */
export const DEFAULT_LIMITS: ServedCacheLimits = { maxEntries: 20_000, maxBytes: 32 * 1024 * 1024 };

export class ServedCache {
  private readonly entries = new Map<string, ServedEntry>();
  /** The addresses built from each dependency: one address as itself, several as a set (most document keys have one). */
  private readonly byDep = new Map<string, string | Set<string>>();
  private generation = 0;
  private bytes = 0;

  constructor(private readonly limits: ServedCacheLimits = DEFAULT_LIMITS) {}

  get size(): number {
    return this.entries.size;
  }

  lookup(cacheKey: string): ServedEntry | undefined {
    return this.entries.get(cacheKey);
  }

  /** An answer to be remembered under `cacheKey` once computed, as of now. */
  admit(cacheKey: string, deps: readonly string[], ignore: ReadonlySet<string> = new Set()): Admission {
    return { cacheKey, generation: this.generation, deps, ignore };
  }

  /** Remembers an admitted answer, unless something it was built from changed since its admission. */
  fill(admission: Admission, answer: ServedAnswer, surrogateKeys: Iterable<string>): void {
    if (admission.generation !== this.generation) return;
    const { cacheKey, ignore } = admission;
    // The surrogate keys are distinct already (servedText); a repeated one would be harmless.
    const deps = [...admission.deps];
    for (const key of surrogateKeys) if (!ignore.has(key) && !admission.deps.includes(key)) deps.push(key);
    this.remove(cacheKey);
    const entry: ServedEntry = { body: answer.body, etag: answer.etag, surrogateKeys: answer.surrogateKeys, deps };
    this.entries.set(cacheKey, entry);
    this.bytes += entry.body.length;
    for (const dep of entry.deps) {
      const keys = this.byDep.get(dep);
      if (keys === undefined) this.byDep.set(dep, cacheKey);
      else if (typeof keys === 'string') {
        if (keys !== cacheKey) this.byDep.set(dep, new Set([keys, cacheKey]));
      } else keys.add(cacheKey);
    }
    this.trim();
  }

  /** Drops every answer built from `dep` (a document key, a collection key or an environment key). */
  evict(dep: string): void {
    this.generation += 1;
    const keys = this.byDep.get(dep);
    if (keys === undefined) return;
    if (typeof keys === 'string') this.remove(keys);
    else for (const key of [...keys]) this.remove(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.byDep.clear();
    this.bytes = 0;
  }

  private remove(cacheKey: string): void {
    const entry = this.entries.get(cacheKey);
    if (!entry) return;
    this.entries.delete(cacheKey);
    this.bytes -= entry.body.length;
    for (const dep of entry.deps) {
      const keys = this.byDep.get(dep);
      if (keys === cacheKey) this.byDep.delete(dep);
      else if (typeof keys === 'object') {
        keys.delete(cacheKey);
        if (keys.size === 0) this.byDep.delete(dep);
      }
    }
  }

  /** Oldest entries out first while over a limit. */
  private trim(): void {
    while (this.entries.size > this.limits.maxEntries || this.bytes > this.limits.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) return;
      this.remove(oldest);
    }
  }
}
