/**
 * `vectors_size` of the delivery documents the last two committed units of work wrote
 * (docs/decisions/0296): every write of a document there sets its vectors exactly (indexing a
 * document clears them, indexing its search entries replaces them, removing it removes them),
 * so what the unit of work wrote is what the file holds until a later one writes the document
 * again. A resource write's answer reads its `vectors_size` here instead of querying
 * `doc_vectors`. Two units, because the answer comes once every projection has the write and
 * the delivery index may have committed one more by then. A unit that removed a whole
 * collection drops the older one.
 */
export class RecentVectorSizes {
  private current: ReadonlyMap<string, number> = new Map();
  private previous: ReadonlyMap<string, number> = new Map();

  /** After a commit: bytes of each document it wrote; `removedFolder` when it removed a collection. */
  committed(sizes: ReadonlyMap<string, number>, removedFolder: boolean): void {
    this.previous = removedFolder ? new Map() : this.current;
    this.current = sizes;
  }

  /** Bytes as the last units of work left them; undefined when they did not write the document. */
  get(env: string, folder: string, key: string): number | undefined {
    const id = docId(env, folder, key);
    return this.current.get(id) ?? this.previous.get(id);
  }
}

/** One document's address as one string (no part contains a NUL). */
export const docId = (env: string, folder: string, key: string): string => `${env}\u0000${folder}\u0000${key}`;
