import type { Position, StoredEvent } from '../commands/ports.js';
import { windowOf } from '../domain/billing.js';
import type { DomainEvent } from '../domain/events.js';
import { entryFor } from './audit-log.js';
import type { Doc, ReadCollection, ReadStore, ReadStoreTx } from './ports.js';
import { batchOver } from './batch-documents.js';
import { asDomainEvent } from './read-model-target.js';
import type { ProjectionTarget } from './runner.js';

/**
 * Live usage counters, kept as events arrive (never counted on a read): per organization
 * its projects and its writes in the current window (every audited change by a user or key),
 * per environment its resources and the bytes of their revisions and vectors.
 */

export type Usage = {
  readonly projects: number;
  readonly resources: number;
  readonly data_storage: number;
  readonly vector_storage: number;
  readonly writes: number;
};

const USAGE = 'usage';
const SIZES = 'usage_revisions';
const orgId = (org: string) => `org:${org}`;
/** A key's writes of the current window (docs/decisions/0163); no `organization`, so the organization's sums leave it out. */
const keyId = (key: string) => `key:${key}`;
const envId = (env: string) => `env:${env}`;

const num = (doc: Doc | null, field: string): number => (typeof doc?.[field] === 'number' ? (doc[field] as number) : 0);

async function bump(usage: ReadCollection, id: string, changes: Record<string, number>, base: Record<string, unknown> = {}): Promise<void> {
  const doc = await usage.get(id);
  if (!doc && Object.keys(base).length === 0) return;
  const next: Record<string, unknown> = { ...base, ...doc };
  for (const [field, delta] of Object.entries(changes)) next[field] = Math.max(0, num(doc, field) + delta);
  await usage.upsert({ ...next, _id: id });
}

async function countWrite(tx: ReadStoreTx, event: DomainEvent, stored: StoredEvent): Promise<void> {
  if (stored.metadata.actor_type === 'system') return;
  const entry = entryFor(event);
  if (!entry) return;
  const usage = tx.collection(USAGE);
  const org = entry.relations.organization ?? (entry.env ? ((await usage.get(envId(entry.env)))?.organization as string | undefined) : undefined);
  if (!org) return;
  const doc = await usage.get(orgId(org));
  const window = windowOf(stored.metadata.timestamp);
  const writes = doc?.window === window ? num(doc, 'writes') + 1 : 1;
  await usage.upsert({ organization: org, ...doc, window, writes, _id: orgId(org) });
  const actor = stored.metadata.actor_type === 'apikey' ? stored.metadata.actor?.key : undefined;
  if (typeof actor === 'string') {
    const mine = await usage.get(keyId(actor));
    await usage.upsert({ _id: keyId(actor), window, writes: mine?.window === window ? num(mine, 'writes') + 1 : 1 });
  }
}

async function removeRevisions(tx: ReadStoreTx, env: string, keys: readonly string[]): Promise<void> {
  const sizes = tx.collection(SIZES);
  let freed = 0;
  for (const key of keys) {
    freed += num(await sizes.get(key), 'size');
    await sizes.delete(key);
  }
  if (freed > 0) await bump(tx.collection(USAGE), envId(env), { data_storage: -freed });
}

async function countEntities(tx: ReadStoreTx, event: DomainEvent): Promise<void> {
  const usage = tx.collection(USAGE);
  switch (event.type) {
    case 'OrganizationCreated':
      return bump(usage, orgId(event.data.key), {}, { organization: event.data.key });
    case 'ProjectCreated':
      return bump(usage, orgId(event.data.organization), { projects: 1 }, { organization: event.data.organization });
    case 'ProjectDeleted':
      for (const env of event.data.environments) await usage.delete(envId(env));
      return bump(usage, orgId(event.data.organization), { projects: -1 });
    case 'EnvironmentCreated':
      return bump(usage, envId(event.data.key), {}, { organization: event.data.organization, env: event.data.key, kind: 'environment' });
    case 'EnvironmentDeleted':
      return usage.delete(envId(event.data.key));
    case 'ResourceCreated':
      return bump(usage, envId(event.data.env), { resources: 1 });
    case 'ResourceDeleted':
      await removeRevisions(tx, event.data.env, event.data.revisions);
      return bump(usage, envId(event.data.env), { resources: -1 });
    case 'RevisionCreated':
      await tx.collection(SIZES).upsert({ _id: event.data.key, size: event.data.size });
      return bump(usage, envId(event.data.env), { data_storage: event.data.size });
    case 'RevisionDeleted':
      return removeRevisions(tx, event.data.env, [event.data.key]);
    default:
      return;
  }
}

export function usageTarget(store: ReadStore): ProjectionTarget & { prepare(): Promise<void> } {
  const name = 'usage';
  return {
    name,
    prepare: () => store.ensureIndex(USAGE, ['organization']),
    checkpoint: () => store.checkpoint(name),
    async apply(events: readonly StoredEvent[], position: Position) {
      await store.unitOfWork(name, position, async (storeTx) => {
        // The counters of one environment and organization change with every event: written once per batch (docs/decisions/0194).
        const tx = batchOver(storeTx);
        for (const stored of events) {
          const event = asDomainEvent(stored);
          await countEntities(tx, event);
          await countWrite(tx, event, stored);
        }
        await tx.flush();
      });
    },
  };
}

/** The writes an API key made in the given window (`YYYY-MM`). */
export async function keyWritesOf(store: ReadStore, key: string, window: string): Promise<number> {
  const doc = await store.collection(USAGE).get(keyId(key));
  return doc?.window === window ? num(doc, 'writes') : 0;
}

/** The counters of one organization, writes of the given window (`YYYY-MM`). */
export async function usageOf(store: ReadStore, organization: string, window: string): Promise<Usage> {
  const docs = await store.collection(USAGE).find({ organization });
  const sum = (field: string) => docs.reduce((total, doc) => total + num(doc, field), 0);
  const org = docs.find((doc) => doc._id === orgId(organization)) ?? null;
  return {
    projects: num(org, 'projects'),
    resources: sum('resources'),
    data_storage: sum('data_storage'),
    vector_storage: sum('vector_storage'),
    writes: org?.window === window ? num(org, 'writes') : 0,
  };
}
