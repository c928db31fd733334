import type { Position } from '../commands/ports.js';
import type { WriteDeps } from './deps.js';
import type { ApiResult } from '../api/handler.js';

export type Written = { position: Position; status: number; read: () => Promise<unknown>; fallback: () => unknown };

/**
 * Read-your-writes: waits until every projection has applied `position`, then answers
 * with the view read from the read model. When the read side is not there in time
 * the write still stands: 202 with what the command produced.
 */
export async function afterWrite(deps: WriteDeps, written: Written): Promise<ApiResult> {
  const applied = await deps.projections.waitFor(written.position, deps.waitTimeoutMs);
  const view = applied ? await written.read() : null;
  return view === null ? { status: 202, body: written.fallback() } : { status: written.status, body: view };
}
