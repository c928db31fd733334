import type { Position } from '../commands/ports.js';

type Waiter = { readonly position: Position; readonly resolve: (reached: boolean) => void; readonly timer: NodeJS.Timeout };

/** Callers waiting until a consumer has applied a position (read-your-writes), each with its timeout. */
export class Waiters {
  private list: Waiter[] = [];

  get size(): number {
    return this.list.length;
  }

  /** Resolves false after `timeoutMs` unless released before. */
  add(position: Position, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.list = this.list.filter((w) => w.timer !== timer);
        resolve(false);
      }, timeoutMs);
      this.list.push({ position, resolve, timer });
    });
  }

  /** Resolves true every wait at or before `position`. */
  release(position: Position): void {
    const reached = this.list.filter((w) => w.position <= position);
    if (reached.length === 0) return;
    this.list = this.list.filter((w) => w.position > position);
    for (const waiter of reached) {
      clearTimeout(waiter.timer);
      waiter.resolve(true);
    }
  }

  /** Resolves false every wait (a fault, a stop). */
  endAll(): void {
    for (const waiter of this.list) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.list = [];
  }
}
