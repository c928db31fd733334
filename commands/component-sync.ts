import { DomainError, notFound } from '../domain/errors.js';
import { own } from '../domain/records.js';
import { schema } from '../domain/schema/decider.js';
import type { FieldDef } from '../domain/schema/fields.js';
import { checkPublishable } from '../domain/schema/publish-rules.js';
import type { CommandBus } from './command-bus.js';
import { collectionNode } from './collections.js';
import type { DraftRevisions } from './compatible-drafts.js';
import { componentNode } from './components.js';
import type { CommandContext } from './context.js';
import { nestedPin } from './field-facts.js';
import { updateField } from './fields.js';
import { createVersion, deleteVersion, publishVersion } from './schema.js';
import { streams } from './streams.js';
import { blockingChanges, type SchemaProps } from '../domain/schema/component-sync.js';

export type SyncInput = { readonly field_paths?: readonly string[]; readonly to_versions?: Readonly<Record<string, string>> };
export type SkipReason = 'not_requested' | 'auto_update_mode' | 'already_at_target' | 'component_not_found' | 'component_unpublished';
export type SyncResult = {
  readonly synced_paths: string[];
  readonly skipped: { path: string; reason: SkipReason }[];
  readonly schema_version: string | null;
  readonly position: string | null;
};

type Planned = { readonly field: FieldDef; readonly target: string };

/**
 * `POST /v1/:env/collections/:key/sync_component/` (docs/decisions/0115): moves the nested
 * fields of the collection's published schema to newer component versions (the current published
 * one, or `to_versions[path]`) through a new version that is published at once. Nothing is
 * written when nothing is to move; a change that would break existing data is refused with 409
 * `component_sync_conflict`; a failure after the draft was made deletes the draft.
 */
export async function syncComponents(bus: CommandBus, ctx: CommandContext, collection: string, input: SyncInput, drafts: DraftRevisions): Promise<SyncResult> {
  if (!(await collectionNode(bus, ctx.env, collection))) throw notFound('collection_not_found', 'Collection');
  const { state } = await bus.load(schema, streams.schema(collection));
  const published = state.published === null ? undefined : own(state.versions, state.published);
  if (!published) throw new DomainError('validation_error', 'The collection has no published schema version to sync.', { schema_version: ['none is published'] });
  const nested = published.fields.filter((f) => f.type === 'nested');
  const requested = input.field_paths ? new Set(input.field_paths) : null;
  const unknown = [...(input.field_paths ?? []), ...Object.keys(input.to_versions ?? {})].filter((p) => !nested.some((f) => f.path === p));
  if (unknown.length > 0) throw new DomainError('validation_error', 'Only nested fields of the published version can be synced.', { field_paths: unknown.map((p) => `${p} is no nested field`) });

  const skipped: SyncResult['skipped'] = [];
  const planned: Planned[] = [];
  for (const field of nested) {
    if (requested && !requested.has(field.path)) skipped.push({ path: field.path, reason: 'not_requested' });
    else if (field.meta.auto_update === true && !input.to_versions?.[field.path]) skipped.push({ path: field.path, reason: 'auto_update_mode' });
    else if (!field.meta.component || !(await componentNode(bus, ctx.env, field.meta.component))) skipped.push({ path: field.path, reason: 'component_not_found' });
    else {
      const target = input.to_versions?.[field.path] ?? (await bus.load(schema, streams.schema(field.meta.component))).state.published;
      if (!target) skipped.push({ path: field.path, reason: 'component_unpublished' });
      else if (target === field.meta.component_version) skipped.push({ path: field.path, reason: 'already_at_target' });
      else planned.push({ field, target });
    }
  }
  if (planned.length === 0) return { synced_paths: [], skipped, schema_version: null, position: null };

  const blocked = [];
  const moved = new Map<string, FieldDef>();
  for (const { field, target } of planned) {
    const pin = await nestedPin(bus, ctx, { ...field.meta, component_version: target });
    blocked.push(...blockingChanges(field.path, (field.pin?.json_schema ?? {}) as SchemaProps, (pin?.json_schema ?? {}) as SchemaProps));
    const { pin: _old, ...rest } = field;
    moved.set(field.path, { ...rest, meta: { ...field.meta, component_version: target }, ...(pin ? { pin } : {}) });
  }
  if (blocked.length > 0) {
    // The product's detail is the list of items itself (its client reads `detail` as an array).
    const detail = blocked as unknown as Record<string, unknown>;
    throw new DomainError('component_sync_conflict', 'The newer component versions would break data written against the pinned ones.', detail, 409);
  }

  // A version that could not be published (components nested too deep) is refused before its draft is written (the publish decides again).
  checkPublishable(published.fields.map((f) => moved.get(f.path) ?? f));

  const ref = { type: 'collection' as const, key: collection };
  const draft = await createVersion(bus, ctx, ref, { name: published.name, description: 'Component sync', copy_from: published.key });
  try {
    for (const { field, target } of planned) await updateField(bus, ctx, ref, draft.key, field.path, { meta: { ...field.meta, component_version: target } });
    const done = await publishVersion(bus, ctx, ref, draft.key, { check_valid_drafts: false, drafts });
    return { synced_paths: planned.map((p) => p.field.path), skipped, schema_version: draft.key, position: done.position };
  } catch (error) {
    await deleteVersion(bus, ctx, ref, draft.key).catch(() => undefined);
    throw error;
  }
}
