/**
 * The addresses asked for recently, so that the served cache remembers an answer only from its
 * second read on (docs/decisions/0266): an address asked for once, such as a list with a new
 * query on every request, costs no cache fill, no later eviction and no memory.
 * Bounded: the oldest address out first.
 */
export class AskedBefore {
  private readonly asked = new Set<string>();

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.asked.size;
  }

  /** Whether `address` was asked for before; records it either way. */
  ask(address: string): boolean {
    if (this.asked.has(address)) return true;
    this.asked.add(address);
    if (this.asked.size > this.maxEntries) this.asked.delete(this.asked.values().next().value!);
    return false;
  }
}
