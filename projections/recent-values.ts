/**
 * Values by id as the last two committed batches of one writer left them (docs/decisions/0296):
 * a write is answered from the batch that applied it instead of reading back what it stored. Two
 * batches, because the answer comes once every projection has the write, and its writer may have
 * committed one more batch by then. Each entry is what the store holds for that id until a later
 * batch writes it: a later batch replaces the generation first. A batch that removed ids it cannot
 * name (by filter, a whole collection) drops the older generation. An id not held is answered
 * `undefined`: read the store.
 */
export class RecentValues<V> {
  private current: ReadonlyMap<string, V> = new Map();
  private previous: ReadonlyMap<string, V> = new Map();

  /** After a batch committed: the values it left by id; `dropOlder` when it removed ids it does not hold. */
  committed(values: ReadonlyMap<string, V>, dropOlder: boolean): void {
    this.previous = dropOlder ? new Map() : this.current;
    this.current = values;
  }

  /** The value as the last batches left it; undefined when they did not touch the id. */
  get(id: string): V | undefined {
    const value = this.current.get(id);
    if (value !== undefined || this.current.has(id)) return value;
    return this.previous.get(id);
  }

  /** Holds nothing (a batch whose outcome is unknown). */
  forget(): void {
    this.current = new Map();
    this.previous = new Map();
  }
}
