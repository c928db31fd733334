// The first vector searches after a start are answered by sqlite-vec while the in-memory copy of
// the vectors loads beside them (docs/decisions/0205): tens of milliseconds each instead of a few.
// The latency rows measure searches once the copy is in memory, as the full-text rows do once the
// text index is (the first full-text search); this times that load on its own (docs/decisions/0299).

/** Answers in a row under this many milliseconds mean the copy answers. */
const FAST_MS = 10;
const IN_A_ROW = 20;
/** Never waits longer: the rows that follow then show the slow answers. */
const LIMIT_MS = 60_000;

export type VectorWarmUp = { readonly ms: number; readonly searches: number; readonly loaded: boolean };

/**
 * Sends vector searches one at a time until IN_A_ROW answer in under FAST_MS each, or LIMIT_MS
 * passed; throws on an answer other than 200.
 */
export async function warmVectorCopy(send: (i: number) => Promise<number>): Promise<VectorWarmUp> {
  const started = performance.now();
  let fast = 0;
  let searches = 0;
  while (fast < IN_A_ROW && performance.now() - started < LIMIT_MS) {
    const sent = performance.now();
    const status = await send(searches++);
    if (status !== 200) throw new Error(`a vector search answered ${status}`);
    fast = performance.now() - sent < FAST_MS ? fast + 1 : 0;
  }
  return { ms: performance.now() - started, searches, loaded: fast >= IN_A_ROW };
}
