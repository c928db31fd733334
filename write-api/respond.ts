import type { Response } from 'express';
import type { Position } from '../commands/ports.js';
import type { WriteDeps } from './deps.js';

/**
 * Read-your-writes: waits until every projection has applied `position`, then answers
 * with the view read from the read model. When the read side is not there in time
 * the write still stands: 202 with what the command produced.
 */
export async function respondAfterWrite(
  deps: WriteDeps,
  res: Response,
  written: { position: Position; status: number; read: () => Promise<unknown>; fallback: () => unknown },
): Promise<void> {
  const applied = await deps.projections.waitFor(written.position, deps.waitTimeoutMs);
  const view = applied ? await written.read() : null;
  if (view === null) {
    res.status(202).json(written.fallback());
    return;
  }
  res.status(written.status).json(view);
}
