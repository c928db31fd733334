import { own } from '../domain/records.js';
import { schema } from '../domain/schema/decider.js';
import { checkPublishable } from '../domain/schema/publish-rules.js';
import { candidateSchema, type PublishVersion } from '../domain/schema/versions.js';
import type { CommandBus, Handled } from './command-bus.js';
import { collectionNode } from './collections.js';
import { countCompatibleDrafts, type DraftRevisions } from './compatible-drafts.js';
import type { CommandContext } from './context.js';
import { newKey } from './keys.js';
import { requiredLocales } from './required-locales.js';
import type { SchemaRef } from '../domain/schema/events.js';
import { schemaOwner } from './schema-owner.js';
import { streams } from './streams.js';

type Result = Handled<unknown, unknown>;

export async function createVersion(
  bus: CommandBus,
  ctx: CommandContext,
  ref: SchemaRef,
  input: { name: string; description: string; copy_from: string | null },
): Promise<Result & { key: string }> {
  const owner = await schemaOwner(bus, ctx, ref);
  const key = newKey();
  const handled = await bus.handle(schema, streams.schema(ref.key), {
    type: 'CreateVersion',
    data: { ...owner, ...input, key, created_at: ctx.now },
  }, ctx.metadata);
  return { ...handled, key };
}

/** Changes a draft's name or description; a field left out keeps its value. */
export async function updateVersion(
  bus: CommandBus,
  ctx: CommandContext,
  ref: SchemaRef,
  key: string,
  input: { name?: string; description?: string },
): Promise<Result> {
  const owner = await schemaOwner(bus, ctx, ref);
  return bus.handle(schema, streams.schema(ref.key), { type: 'UpdateVersion', data: { ...owner, ...input, key } }, ctx.metadata);
}

export async function deleteVersion(bus: CommandBus, ctx: CommandContext, ref: SchemaRef, key: string): Promise<Result> {
  const owner = await schemaOwner(bus, ctx, ref);
  return bus.handle(schema, streams.schema(ref.key), { type: 'DeleteVersion', data: { ...owner, key } }, ctx.metadata);
}

/**
 * Publishes a draft. The decider gets two facts from outside the schema stream: how many draft
 * revisions of the collection the new schema accepts (only counted for `check_valid_drafts`), and
 * the collection's `auto_remove_schema_versions`.
 */
export async function publishVersion(
  bus: CommandBus,
  ctx: CommandContext,
  ref: SchemaRef,
  version: string,
  options: { check_valid_drafts: boolean; drafts: DraftRevisions },
): Promise<Result> {
  const owner = await schemaOwner(bus, ctx, ref);
  const locales = await requiredLocales(bus, ctx.env);
  return bus.handle(schema, streams.schema(ref.key), async (state): Promise<PublishVersion> => {
    const target = own(state.versions, version);
    const publishable = target !== undefined && target.version_number === null && target.fields.length > 0;
    // Refuse an unpublishable draft before its schema is compiled to count drafts.
    if (publishable) checkPublishable(target.fields);
    const counted = options.check_valid_drafts && publishable && ref.type === 'collection';
    const node = ref.type === 'collection' ? await collectionNode(bus, ctx.env, ref.key) : null;
    return {
      type: 'PublishVersion',
      data: {
        ...owner,
        version,
        published_at: ctx.now,
        locales,
        check_valid_drafts: options.check_valid_drafts,
        compatible_drafts: counted ? await countCompatibleDrafts(options.drafts, ref.key, candidateSchema(target, locales)) : 0,
        keep_archived: node?.auto_remove_schema_versions ?? null,
      },
    };
  }, ctx.metadata);
}
