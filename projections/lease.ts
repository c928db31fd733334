/**
 * One runner per projection and reactor across processes (docs/decisions/0386): a lease per
 * consumer, with a holder, an epoch and an expiry. Whoever takes a lease over raises its epoch;
 * a checkpoint is written only with the epoch of the lease it was fenced with.
 */
export interface Leases {
  /** Takes the lease when it is free, expired or its holder is known dead; answers its epoch, or null when another holds it. */
  acquire(name: string, holder: string, ttlMs: number, now?: number): Promise<number | null>;
  /** Extends a lease still held with this epoch; false when it was lost (expired and taken over). */
  renew(name: string, holder: string, epoch: number, ttlMs: number, now?: number): Promise<boolean>;
  /**
   * Raises the epoch of a lease still held with `epoch` to `above + 1` and answers it (null when
   * it was lost): a checkpoint fenced with a higher epoch than the leases hold, which happens when
   * the leases' store was removed and the checkpoints' kept (read-models.db rebuilt, delivery.db not).
   */
  raise(name: string, holder: string, epoch: number, above: number): Promise<number | null>;
  /** Lets it go at once (a clean stop), keeping its epoch for the next holder to raise. */
  release(name: string, holder: string, epoch: number): Promise<void>;
  close(): Promise<void>;
}

/** A checkpoint write refused: a later epoch fenced the consumer (the lease passed to another process). */
export class LeaseLost extends Error {
  constructor(
    readonly consumer: string,
    readonly epoch: number,
    /** The epoch the checkpoint holds, where the store tells it. */
    readonly stored: number | null = null,
  ) {
    super(`the lease of ${consumer} passed on: epoch ${epoch} may no longer write its checkpoint`);
    this.name = 'LeaseLost';
  }
}

/** Where one holder stands in the store's leases: `host/pid/random`, so that a holder on the same host can be seen dead. */
export function holderId(host: string, pid: number): string {
  return `${host}/${pid}/${Math.random().toString(36).slice(2, 10)}`;
}
