import type { CommandContext } from '../commands/context.js';
import { isoNow } from '../commands/time-text.js';
import { createResource } from '../commands/resources.js';
import { createRevision } from '../commands/revisions.js';
import { streams } from '../commands/streams.js';
import { DomainError, notFound } from '../domain/errors.js';
import { resource } from '../domain/resource/decider.js';
import type { RevisionCreated } from '../domain/resource/events.js';
import type { DeliveryAsk, DeliveryWrites, WriteMatch } from '../api/delivery-ask.js';
import { keyActor } from '../api/views.js';
import type { Doc } from '../projections/ports.js';
import { refererHost } from '../api/referer.js';
import type { WriteDeps } from './deps.js';
import { validator } from './validate.js';

/**
 * Delivery writes (docs/decisions/0063): `POST {prefix}/{path}/` creates and publishes a
 * resource, `PUT {prefix}/{path}/{key}/` replaces its data with a new published revision.
 * Both need a key with the grant and a connection that allows `create` / `update`.
 */

const dataSchema = { type: 'object' };
const createBody = validator<{ data: Record<string, unknown>; key?: string }>({
  type: 'object',
  properties: { data: dataSchema, key: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[a-zA-Z0-9_/.-]+$' } },
  required: ['data'],
  additionalProperties: false,
});
const updateBody = validator<{ data: Record<string, unknown> }>({ type: 'object', properties: { data: dataSchema }, required: ['data'], additionalProperties: false });

/** Units a write costs: one per document written (docs/decisions/0063). */
const WRITE_UNITS = 1;
const MAX_ERRORS = 50;

/** A schema failure as the product's clients expect it: 422 content_validation_failed, JSON paths. */
function contentError(error: unknown): unknown {
  if (!(error instanceof DomainError) || !['validation_error', 'data_validation_error'].includes(error.code)) return error;
  const errors = error.detail?.errors;
  if (!Array.isArray(errors)) return error;
  const shown = (errors as { path: string; message: string }[]).map((e) => ({ json_path: `$${e.path === '/' ? '' : e.path.replace(/\//g, '.')}`, message: e.message }));
  return new DomainError('content_validation_failed', error.message, { errors: shown.slice(0, MAX_ERRORS), errors_truncated: shown.length > MAX_ERRORS });
}

/**
 * The parent key a strict-reference address names (its last keyed ancestor), or null. Every
 * keyed ancestor must be a live resource of its collection, owned by the one before it.
 */
async function ownerOf(deps: WriteDeps, match: WriteMatch): Promise<string | null> {
  let parent: string | null = null;
  for (const folder of match.route.chain) {
    const key = match.keys.get(folder) as string;
    const { state } = await deps.bus.load(resource, streams.resource(key));
    if (state.status !== 'active' || state.folder !== folder || (parent !== null && state.resource_owner !== parent)) {
      throw notFound('resource_not_found', 'Parent resource');
    }
    parent = key;
  }
  return parent;
}

/** Who writes, from where, when: the key the pipeline authenticated. */
function keyContext(ask: DeliveryAsk, env: string, caller: { readonly key: Doc }): CommandContext {
  const now = isoNow();
  const metadata = { actor_type: 'apikey' as const, actor: keyActor(caller.key), ip_address: ask.remoteAddress, referer: refererHost(ask), timestamp: now };
  return { env, metadata, now };
}

export function deliveryWrites(deps: WriteDeps): DeliveryWrites {
  const create = async (ctx: CommandContext, folder: string, owner: string | null, body: unknown) => {
    const input = createBody(body);
    const created = await createResource(deps.bus, deps.validator, ctx, {
      folder, name: null, external_id: input.key ?? null, resource_owner: owner, mode: 'instant', validate_data: true, data: input.data,
    }, deps.resourceQuota);
    const revision = created.events.find((e) => (e as { type: string }).type === 'RevisionCreated') as RevisionCreated | undefined;
    return { position: created.position, resource_key: created.key, revision_key: revision?.data.key ?? null };
  };

  const update = async (ctx: CommandContext, folder: string, owner: string | null, key: string, body: unknown) => {
    const input = updateBody(body);
    const { state } = await deps.bus.load(resource, streams.resource(key));
    if (state.status !== 'active' || state.folder !== folder || (owner !== null && state.resource_owner !== owner)) throw notFound('resource_not_found', 'Resource');
    // One command: a refusal (billing, protection) or a crash cannot leave a draft without its publication.
    const written = await createRevision(deps.bus, deps.validator, ctx, folder, key, { data: input.data, validate_data: true, publish: true });
    return { position: written.position, resource_key: key, revision_key: written.revision };
  };

  return {
    async handle(ask, { env, match, caller, authorize }) {
      const creating = ask.method === 'POST';
      if (match.rest.length !== (creating ? 0 : 1)) throw notFound('route_not_found', 'Route');
      const action = creating ? 'create' : 'update';
      const { route } = match;
      authorize(action);
      if (ask.bodyError) throw ask.bodyError;
      if (!route.allowed_methods.includes(action) || route.keep !== route.chain.length) {
        throw new DomainError('collection_not_writable', `The connection does not allow ${action}.`, { allowed_methods: [...route.allowed_methods] });
      }
      // authorize() refused an anonymous write.
      const ctx = keyContext(ask, env, caller!);
      try {
        const owner = await ownerOf(deps, match);
        const written = creating
          ? await create(ctx, route.folder, owner, ask.body)
          : await update(ctx, route.folder, owner, match.rest[0] as string, ask.body);
        await deps.projections.waitFor(written.position, deps.waitTimeoutMs);
        const body = { resource_key: written.resource_key, revision_key: written.revision_key, write_units: WRITE_UNITS, published: true };
        return { status: creating ? 201 : 200, body: JSON.stringify(body) };
      } catch (error) {
        throw contentError(error);
      }
    },
  };
}
