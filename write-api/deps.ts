import type { CommandBus } from '../commands/command-bus.js';
import type { DataValidator } from '../commands/data-validator.js';
import type { ResourceQuota } from '../commands/resource-quota.js';
import type { Projections } from '../projections/runner.js';
import type { ReadStore, SearchIndex } from '../projections/ports.js';
import type { RecentDocs } from '../projections/recent-docs.js';

export type WriteDeps = {
  readonly bus: CommandBus;
  readonly validator: DataValidator;
  readonly projections: Projections;
  readonly readStore: ReadStore;
  /** How long a `wait=true` write waits for the read side. */
  readonly waitTimeoutMs: number;
  /** RESOURCE_LIMIT; null: resources are not counted. */
  readonly resourceQuota: ResourceQuota;
  /** The delivery index, for `vectors_size` in resource answers (left out: 0). */
  readonly searchIndex?: SearchIndex;
  /** The resources the read models' last batches wrote, for answers without a read back (docs/decisions/0296; left out: read the store). */
  readonly recentResources?: RecentDocs;
  /** Webhooks (docs/decisions/0353): WEBHOOK_ALLOW_PRIVATE_NETWORKS, and a nudge to the sender after a retry (left out: off, none). */
  readonly webhooks?: { readonly allowPrivateNetworks: boolean; readonly wake: () => void };
};
