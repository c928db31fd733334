import type { StoredEvent } from '../commands/ports.js';
import { environmentDisabled } from '../domain/environment/protection.js';
import { notFound } from '../domain/errors.js';
import type { ReadStore } from '../projections/ports.js';

/**
 * Which environments are disabled or deleted, kept in memory from the read model at start and
 * from each projected batch after it, so refusing a request to a disabled environment costs
 * no query on the delivery hot path.
 */
export class EnvironmentStatus {
  private readonly disabled = new Set<string>();
  private readonly deleted = new Set<string>();

  constructor(private readonly store: ReadStore) {}

  async loadAll(): Promise<void> {
    for (const doc of await this.store.collection('environments').find({ is_enabled: false })) this.disabled.add(doc._id);
  }

  /** Follows toggles and deletes of a projected batch. */
  observe(batch: readonly StoredEvent[]): void {
    for (const stored of batch) {
      const data = stored.data as { key: string; is_enabled?: boolean; environments?: readonly string[] };
      if (stored.type === 'EnvironmentToggled') {
        if (data.is_enabled) this.disabled.delete(data.key);
        else this.disabled.add(data.key);
      } else if (stored.type === 'EnvironmentDeleted') {
        this.deleted.add(data.key);
      } else if (stored.type === 'ProjectDeleted') {
        for (const env of data.environments ?? []) this.deleted.add(env);
      }
    }
  }

  /** Throws environment_not_found for a deleted and 403 environment_disabled for a disabled environment. */
  check(env: string): void {
    if (this.deleted.has(env)) throw notFound('environment_not_found', 'Environment');
    if (this.disabled.has(env)) throw environmentDisabled();
  }
}
