import { Router, type Response } from 'express';
import { createApiKey, deleteApiKey, issueBearerToken, revokeBearerToken, updateApiKey } from '../commands/api-keys.js';
import type { KeyKind } from '../domain/api-keys/events.js';
import { PERMISSION_BASES } from '../read-api/permission-paths.js';
import { param } from '../read-api/query.js';
import { apiKeyView } from '../read-api/views.js';
import { commandContext } from './context.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
import { documented, validator } from './validate.js';

const properties = {
  description: { type: 'string', maxLength: 100 },
  role: { type: ['string', 'null'], maxLength: 100 },
};

const createBody = validator<{ description: string; role: string | null }>({
  type: 'object',
  properties: { description: { ...properties.description, default: '' }, role: { ...properties.role, default: null } },
  additionalProperties: false,
});

/** PUT: the fields sent replace theirs, the others are kept (docs/decisions/0060). */
const updateBody = validator<{ description?: string; role?: string | null }>({ type: 'object', properties, additionalProperties: false });

// The request schemas in the API documents (/openapi.json).
documented(createBody, { method: 'POST', path: '/api-keys/', in: 'body' });
documented(updateBody, { method: 'PUT', path: '/api-keys/:key/', in: 'body' });

/** Creates, updates and deletes management and delivery API keys; issues and revokes delivery bearer tokens. */
export function apiKeysWriteRouter(deps: WriteDeps): Router {
  const router = Router({ mergeParams: true });
  const keys = () => deps.readStore.collection('api_keys');

  const answer = (res: Response, key: string, position: string, status: number, extra: Record<string, unknown>, fallback: () => unknown) =>
    respondAfterWrite(deps, res, {
      position,
      status,
      read: async () => {
        const doc = await keys().get(key);
        return doc ? { ...apiKeyView(doc), ...extra } : null;
      },
      fallback,
    });

  const routes = (base: string, kind: KeyKind) => {
    router.post(`${base}/api-keys/`, async (req, res) => {
      const input = createBody(req.body);
      const ctx = commandContext(req, res);
      const created = await createApiKey(deps.bus, ctx, { ...input, kind });
      const shown = { key: created.key, description: input.description, public_key: created.public_key, role: input.role, created_at: ctx.now, environment: ctx.env };
      const token = kind === 'delivery' ? { bearer_token_prefix: null } : {};
      await answer(res, created.key, created.position, 201, { secret_key: created.secret_key }, () => ({ ...shown, ...token, secret_key: created.secret_key }));
    });

    router.put(`${base}/api-keys/:key/`, async (req, res) => {
      const input = updateBody(req.body);
      const key = param(req, 'key');
      const updated = await updateApiKey(deps.bus, commandContext(req, res), kind, key, input);
      await answer(res, key, updated.position, 200, {}, () => ({ key, ...input }));
    });

    router.delete(`${base}/api-keys/:key/`, async (req, res) => {
      const deleted = await deleteApiKey(deps.bus, commandContext(req, res), kind, param(req, 'key'));
      await deps.projections.waitFor(deleted.position, deps.waitTimeoutMs);
      res.status(204).end();
    });
  };

  for (const { base, kind } of PERMISSION_BASES) {
    routes(base, kind);
    if (kind !== 'delivery') continue;
    router.post(`${base}/api-keys/:key/bearer-token/`, async (req, res) => {
      const key = param(req, 'key');
      const issued = await issueBearerToken(deps.bus, commandContext(req, res), key);
      const shown = { key, bearer_token: issued.token, bearer_token_prefix: issued.token.slice(0, 12) };
      await deps.projections.waitFor(issued.position, deps.waitTimeoutMs);
      res.status(201).json(shown);
    });
    router.delete(`${base}/api-keys/:key/bearer-token/`, async (req, res) => {
      const revoked = await revokeBearerToken(deps.bus, commandContext(req, res), param(req, 'key'));
      await deps.projections.waitFor(revoked.position, deps.waitTimeoutMs);
      res.status(204).end();
    });
  }

  return router;
}
