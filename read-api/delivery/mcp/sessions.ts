/** One agent session: bound to the environment and API prefix it was opened on. */
export type Session<T> = { readonly env: string; readonly prefix: string; readonly value: T; lastUsed: number };

/**
 * Agent sessions by id, each dropped after `idleMs` without use (docs/decisions/0121). The
 * clock is passed in, so the expiry rule is tested without waiting.
 */
export class Sessions<T> {
  private readonly byId = new Map<string, Session<T>>();

  constructor(
    private readonly idleMs: number,
    private readonly onDrop: (value: T) => void,
  ) {}

  add(id: string, session: Session<T>): void {
    this.byId.set(id, session);
  }

  /** The live session of that id opened on that environment and prefix, touched; else undefined. */
  use(id: string, env: string, prefix: string, now: number): Session<T> | undefined {
    const session = this.byId.get(id);
    if (!session || session.env !== env || session.prefix !== prefix) return undefined;
    if (now - session.lastUsed > this.idleMs) {
      this.drop(id);
      return undefined;
    }
    session.lastUsed = now;
    return session;
  }

  drop(id: string): void {
    const session = this.byId.get(id);
    if (!session) return;
    this.byId.delete(id);
    this.onDrop(session.value);
  }

  /** Drops every session idle for longer than the limit; returns how many. */
  sweep(now: number): number {
    let dropped = 0;
    for (const [id, session] of this.byId) {
      if (now - session.lastUsed > this.idleMs) {
        this.drop(id);
        dropped += 1;
      }
    }
    return dropped;
  }

  get size(): number {
    return this.byId.size;
  }

  clear(): void {
    for (const id of [...this.byId.keys()]) this.drop(id);
  }
}
