import { SCHEDULER_DUE } from './schedules.js';
import { TABLES } from './webhook-deliveries.js';

/**
 * The tables reactors keep in the read store (webhook deliveries, due schedules): not read models.
 * A rebuild of the read models leaves them as they are, with their consumers' checkpoints
 * (docs/decisions/0355, 0357): replaying the log into them again would send every past event again.
 */
export const REACTOR_TABLES: ReadonlySet<string> = new Set([...Object.values(TABLES), SCHEDULER_DUE]);
