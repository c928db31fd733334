import { REVISION_MODELS } from '../../projections/catalog.js';
import { readModelTarget } from '../../projections/read-model-target.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import { ScratchReadStore } from '../sqlite/scratch-read-store.js';
import { BufferedReadStore } from './buffered-read-store.js';

/** The consumer whose read models a rebuild writes into a scratch file, beside the delivery index (docs/decisions/0250). */
export const SCRATCH_CONSUMER = 'revisions';

/** The scratch file of a rebuild's revisions, beside the read models: copied into them by the swap, then removed. */
export const SCRATCH_FILE = 'read-models.rebuilding.db';

export type ScratchRevisions = {
  readonly target: ProjectionTarget;
  /** Writes the buffer out and builds the live file's indexes over the full tables. */
  readonly finish: () => Promise<void>;
  readonly close: () => Promise<void>;
};

/**
 * The `revisions` consumer (projections/catalog.ts REVISION_MODELS) replayed into `file`, the
 * live file's layout, through a write-back buffer; `written` when the file already holds an
 * earlier run's documents (a catch-up).
 */
export function scratchRevisions(file: string, written = false): ScratchRevisions {
  const store = new ScratchReadStore(file);
  const buffered = new BufferedReadStore(store, undefined, written);
  const target = readModelTarget(buffered, REVISION_MODELS, SCRATCH_CONSUMER);
  return {
    target,
    finish: async () => {
      await buffered.flush();
      await target.prepare();
    },
    close: () => store.close(),
  };
}
