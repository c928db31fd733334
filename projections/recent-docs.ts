import type { Doc } from './ports.js';
import { RecentValues } from './recent-values.js';

/**
 * The documents of one read-model collection that the last two committed batches read or wrote,
 * by id (null: none stored), for `wait=true` answers without a read back (docs/decisions/0296,
 * recent-values.ts). A batch that deleted from the collection by filter drops the older one.
 */
export class RecentDocs extends RecentValues<Doc | null> {
  constructor(readonly collection: string) {
    super();
  }
}
