import { externalId, type ClaimExternalId } from '../domain/external-id/decider.js';
import { resource, type CreateResource, type Validation } from '../domain/resource/decider.js';
import { schema } from '../domain/schema/decider.js';
import { notFound } from '../domain/errors.js';
import type { CommandBus, Handled } from './command-bus.js';
import { collectionNode } from './collections.js';
import type { CommandContext } from './context.js';
import type { DataValidator } from './data-validator.js';
import { newKey } from './keys.js';
import { streams } from './streams.js';

export type ResourceInput = {
  readonly folder: string;
  readonly name: string | null;
  readonly external_id: string | null;
  readonly resource_owner: string | null;
  readonly mode: 'instant' | 'draft';
  readonly validate_data: boolean;
  readonly data: Record<string, unknown>;
};

/** Validates the payload against the collection's published schema, read from the schema stream. */
async function validation(bus: CommandBus, validator: DataValidator, folder: string, data: unknown, wanted: boolean): Promise<Validation> {
  const { state } = await bus.load(schema, streams.schema(folder));
  if (state.published === null || state.publishedSchema === null) return { schema_version: null, errors: null };
  if (!wanted) return { schema_version: state.published, errors: null };
  return { schema_version: state.published, errors: validator.validate(state.published, state.publishedSchema, data) };
}

export async function createResource(
  bus: CommandBus,
  validator: DataValidator,
  ctx: CommandContext,
  input: ResourceInput,
): Promise<Handled<unknown, unknown> & { key: string }> {
  const node = await collectionNode(bus, ctx.env, input.folder);
  if (!node) throw notFound('collection_not_found', 'Collection');
  const required = node.strict_reference;
  let found = false;
  if (required && input.resource_owner !== null) {
    const { state: parent } = await bus.load(resource, streams.resource(input.resource_owner));
    found = parent.status === 'active' && parent.folder === node.parent;
  }
  const { data, mode, validate_data, ...fields } = input;
  const key = newKey();
  const command: CreateResource = {
    type: 'CreateResource',
    data: {
      ...fields,
      env: ctx.env,
      key,
      created_at: ctx.now,
      mode,
      validate_data,
      revision: newKey(),
      data,
      size: Buffer.byteLength(JSON.stringify(data)),
      validation: await validation(bus, validator, input.folder, data, validate_data),
      owner: { required, found },
    },
  };
  // Refuse invalid input before anything is claimed: a new resource's decision needs no state.
  resource.decide(command, resource.initialState());
  if (input.external_id !== null) await claimExternalId(bus, ctx, input.folder, input.external_id, key);
  const handled = await bus.handle(resource, streams.resource(key), command, ctx.metadata);
  return { ...handled, key };
}

/** Claims an external_id for a resource key through its reservation stream (409 when taken). */
async function claimExternalId(bus: CommandBus, ctx: CommandContext, folder: string, value: string, owner: string): Promise<void> {
  await bus.handle(externalId, streams.externalId(folder, value), async (state): Promise<ClaimExternalId> => ({
    type: 'ClaimExternalId',
    data: {
      env: ctx.env,
      folder,
      external_id: value,
      resource: owner,
      claimed_at: ctx.now,
      now: ctx.now,
      ownerExists: state.owner !== null && (await bus.load(resource, streams.resource(state.owner))).state.status !== 'none',
    },
  }), ctx.metadata);
}

/** Changes the resource's metadata (`name`); null removes the name. */
export async function updateResourceMetadata(bus: CommandBus, ctx: CommandContext, folder: string, key: string, name: string | null | undefined) {
  if (!(await collectionNode(bus, ctx.env, folder))) throw notFound('collection_not_found', 'Collection');
  return bus.handle(resource, streams.resource(key), { type: 'UpdateMetadata', data: { env: ctx.env, folder, key, name } }, ctx.metadata);
}
