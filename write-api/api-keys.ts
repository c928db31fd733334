import { Router } from 'express';
import { createApiKey } from '../commands/api-keys.js';
import { MANAGEMENT_KEYS } from '../read-api/api-keys.js';
import { apiKeyView } from '../read-api/views.js';
import { commandContext } from './context.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
import { documented, validator } from './validate.js';

const keyBody = validator<{ description: string; role: string | null }>({
  type: 'object',
  properties: {
    description: { type: 'string', maxLength: 100, default: '' },
    role: { type: ['string', 'null'], default: null },
  },
  additionalProperties: false,
});

// The request schemas in the API documents (/openapi.json).
documented(keyBody, { method: 'POST', path: '/management-api/api-keys/', in: 'body' });

/** Creates management API keys; the secret key is in the create response only. */
export function apiKeysWriteRouter(deps: WriteDeps): Router {
  const router = Router({ mergeParams: true });

  router.post(`${MANAGEMENT_KEYS}/`, async (req, res) => {
    const input = keyBody(req.body);
    const ctx = commandContext(req, res);
    const created = await createApiKey(deps.bus, ctx, { ...input, kind: 'management' });
    const shown = { key: created.key, description: input.description, public_key: created.public_key, role: input.role, created_at: ctx.now, environment: ctx.env };
    await respondAfterWrite(deps, res, {
      position: created.position,
      status: 201,
      read: async () => {
        const doc = await deps.readStore.collection('api_keys').get(created.key);
        return doc ? { ...apiKeyView(doc), secret_key: created.secret_key } : null;
      },
      fallback: () => ({ ...shown, secret_key: created.secret_key }),
    });
  });

  return router;
}
