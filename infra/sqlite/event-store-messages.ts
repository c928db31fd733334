import { WrongExpectedRevision, type AppendResult, type ExpectedRevision, type NewEvent } from '../../commands/ports.js';
import type { EventRow } from './event-group-commit.js';

/**
 * Slots of the memory the event store's writer thread and the main thread share
 * (docs/decisions/0315), a `BigInt64Array`, read and written with `Atomics` only.
 */
export const SLOT = {
  /** The first position of the group committed and not yet synced, or -1: readers stay below it. Kept for good after a failed sync. */
  unsynced: 0,
  /** Groups the writer thread committed since it started. */
  commits: 1,
  /** Times the writer thread found that another connection (another process) had committed. */
  foreign: 2,
  /** The highest position the writer thread inserted (set before its COMMIT), or 0. */
  last: 3,
} as const;
export const SLOTS = 4;

/** A test hook (docs/decisions/0315): an `Int32Array` over shared memory the thread looks at before each WAL sync. */
export const GATE = {
  /** 1: the thread waits here before syncing until it is 0 again. */
  hold: 0,
  /** Syncs still to fail (each failure counts one down). */
  fail: 1,
  /** Syncs the thread has started waiting at the gate for. */
  waited: 2,
} as const;
export const GATE_SLOTS = 3;

/** One append as posted. */
export type PostedAppend = { readonly stream: string; readonly events: readonly NewEvent[]; readonly expected: ExpectedRevision };

/** What the main thread posts: appends (in the order of the calls), or the close. */
export type WriterRequest = { readonly kind: 'appends'; readonly appends: readonly PostedAppend[] } | { readonly kind: 'close' };

/** An append's refusal as it crosses: an Error's own fields, or the revision conflict with its values. */
export type Refusal =
  | { readonly conflict: true; readonly stream: string; readonly expected: ExpectedRevision; readonly actual: number | 'no_stream' }
  | { readonly conflict: false; readonly name: string; readonly message: string; readonly code?: string };

export type WriterOutcome = { readonly ok: true; readonly result: AppendResult } | { readonly ok: false; readonly refusal: Refusal };


/**
 * One reply per group, in commit order, sent once its WAL sync ended or failed; for the `count`
 * oldest appends posted and not yet answered, each with its outcome, and the rows inserted.
 */
export type WriterReply =
  | {
      readonly kind: 'group';
      readonly count: number;
      readonly outcomes: readonly WriterOutcome[];
      readonly rows: readonly EventRow[];
      /** The group's transaction failed: nothing of it is stored, each append is refused with this. */
      readonly refused?: Refusal;
      /** Its WAL sync failed: each append is refused with this, and the store refuses every later one. */
      readonly failed?: Refusal;
      /** Wall-clock start and length of the commit and of the sync, in ms (the stage trace, 0275). */
      readonly commit: readonly [number, number];
      readonly sync: readonly [number, number] | null;
    }
  | { readonly kind: 'closed' };

const KNOWN: Record<string, ErrorConstructor> = { TypeError, RangeError, SyntaxError };

/** An error as it crosses to the main thread: a native Error's message and name, SQLite's `code`. */
export function toRefusal(error: unknown): Refusal {
  if (error instanceof WrongExpectedRevision) return { conflict: true, stream: error.stream, expected: error.expected, actual: error.actual };
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { conflict: false, name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { conflict: false, name: 'Error', message: String(error) };
}

/** The error a refusal stands for, of the same class where it is one the callers tell apart. */
export function fromRefusal(refusal: Refusal): Error {
  if (refusal.conflict) return new WrongExpectedRevision(refusal.stream, refusal.expected, refusal.actual);
  const error = new (KNOWN[refusal.name] ?? Error)(refusal.message);
  if (!(refusal.name in KNOWN) && refusal.name !== 'Error') error.name = refusal.name;
  if (refusal.code !== undefined) (error as Error & { code: string }).code = refusal.code;
  return error;
}
