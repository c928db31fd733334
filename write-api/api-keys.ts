import { json, type ApiRoute } from '../api/handler.js';
import { createApiKey, deleteApiKey, issueBearerToken, revokeBearerToken, updateApiKey } from '../commands/api-keys.js';
import type { KeyKind } from '../domain/api-keys/events.js';
import { PERMISSION_BASES } from '../api/permission-paths.js';
import { param } from '../api/query.js';
import { apiKeyView } from '../api/views.js';
import type { WriteDeps } from './deps.js';
import { afterWrite } from './respond.js';
import { documented, validator } from './validate.js';

const properties = {
  description: { type: 'string', maxLength: 100 },
  role: { type: ['string', 'null'], maxLength: 100 },
  /** docs/decisions/0163: most USD the key's writes may spend per billing cycle; null for none. */
  spend_cap_usd: { type: ['number', 'null'], minimum: 0, maximum: 1_000_000_000 },
};

const createBody = validator<{ description: string; role: string | null; spend_cap_usd: number | null }>({
  type: 'object',
  properties: { description: { ...properties.description, default: '' }, role: { ...properties.role, default: null }, spend_cap_usd: { ...properties.spend_cap_usd, default: null } },
  additionalProperties: false,
});

/** PUT: the fields sent replace theirs, the others are kept (docs/decisions/0060). */
const updateBody = validator<{ description?: string; role?: string | null; spend_cap_usd?: number | null }>({ type: 'object', properties, additionalProperties: false });

// The request schemas in the API documents (/openapi.json).
documented(createBody, { method: 'POST', path: '/api-keys/', in: 'body' });
documented(updateBody, { method: 'PUT', path: '/api-keys/:key/', in: 'body' });

/** Creates, updates and deletes management and delivery API keys; issues and revokes delivery bearer tokens. */
export function apiKeysWriteRoutes(deps: WriteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const keys = () => deps.readStore.collection('api_keys');

  const answer = (key: string, position: string, status: number, extra: Record<string, unknown>, fallback: () => unknown) =>
    afterWrite(deps, {
      position,
      status,
      read: async () => {
        const doc = await keys().get(key);
        return doc ? { ...apiKeyView(doc), ...extra } : null;
      },
      fallback,
    });

  const keyRoutes = (base: string, kind: KeyKind) => {
    routes.push({ method: 'post', path: `${base}/api-keys/`, handler: async (request) => {
      const input = createBody(request.body);
      const ctx = request.context;
      const created = await createApiKey(deps.bus, ctx, { ...input, kind });
      const shown = { key: created.key, description: input.description, public_key: created.public_key, role: input.role, spend_cap_usd: input.spend_cap_usd, created_at: ctx.now, environment: ctx.env };
      const token = kind === 'delivery' ? { bearer_token_prefix: null } : {};
      return answer(created.key, created.position, 201, { secret_key: created.secret_key }, () => ({ ...shown, ...token, secret_key: created.secret_key }));
    } });

    routes.push({ method: 'put', path: `${base}/api-keys/:key/`, handler: async (request) => {
      const input = updateBody(request.body);
      const key = param(request, 'key');
      const updated = await updateApiKey(deps.bus, request.context, kind, key, input);
      return answer(key, updated.position, 200, {}, () => ({ key, ...input }));
    } });

    routes.push({ method: 'delete', path: `${base}/api-keys/:key/`, handler: async (request) => {
      const deleted = await deleteApiKey(deps.bus, request.context, kind, param(request, 'key'));
      await deps.projections.waitFor(deleted.position, deps.waitTimeoutMs);
      return { status: 204 };
    } });
  };

  for (const { base, kind } of PERMISSION_BASES) {
    keyRoutes(base, kind);
    if (kind !== 'delivery') continue;
    routes.push({ method: 'post', path: `${base}/api-keys/:key/bearer-token/`, handler: async (request) => {
      const key = param(request, 'key');
      const issued = await issueBearerToken(deps.bus, request.context, key);
      const shown = { key, bearer_token: issued.token, bearer_token_prefix: issued.token.slice(0, 12) };
      await deps.projections.waitFor(issued.position, deps.waitTimeoutMs);
      return json(201, shown);
    } });
    routes.push({ method: 'delete', path: `${base}/api-keys/:key/bearer-token/`, handler: async (request) => {
      const revoked = await revokeBearerToken(deps.bus, request.context, param(request, 'key'));
      await deps.projections.waitFor(revoked.position, deps.waitTimeoutMs);
      return { status: 204 };
    } });
  }

  return routes;
}
