import type { ApiRoute } from '../api/handler.js';
import { createLocale, deleteLocale, updateLocale, type LocaleInput } from '../commands/locales.js';
import { DomainError } from '../domain/errors.js';
import type { LocaleFields } from '../domain/locales/events.js';
import { localeId } from '../projections/locales.js';
import { param } from '../api/query.js';
import { localeView } from '../api/views.js';
import type { WriteDeps } from './deps.js';
import { afterWrite } from './respond.js';
import { documented, validator } from './validate.js';

const properties = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  /** Letters, or blocks of letters joined by underscores: `en`, `en_US`. */
  code: { type: 'string', minLength: 1, maxLength: 50, pattern: '^[A-Za-z]+(_[A-Za-z]+)*$' },
  is_default: { type: 'boolean' },
};

const createBody = validator<LocaleInput>({
  type: 'object',
  properties: { ...properties, is_default: { ...properties.is_default, default: false } },
  required: ['name', 'code'],
  additionalProperties: false,
});

/** PUT: `name` and `is_default`; `code` only echoing the current one (docs/decisions/0013). */
const updateBody = validator<Partial<LocaleInput>>({ type: 'object', properties, minProperties: 1, additionalProperties: false });

// The request schemas in the API documents (/openapi.json).
documented(createBody, { method: 'POST', path: '/locales/', in: 'body' });
documented(updateBody, { method: 'PUT', path: '/locales/:code/', in: 'body' });

/** Creates, updates and deletes locales. */
export function localesWriteRoutes(deps: WriteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const answer = async (env: string, code: string, written: { position: string; events: readonly unknown[] }, status: number) => {
    const own = written.events.find((e) => (e as { data: LocaleFields }).data.code === code) as { data: LocaleFields } | undefined;
    return afterWrite(deps, {
      position: written.position,
      status,
      read: async () => {
        const doc = await deps.readStore.collection('locales').get(localeId(env, code));
        return doc ? localeView(doc) : null;
      },
      fallback: () => localeView({ _id: localeId(env, code), ...own?.data }),
    });
  };

  routes.push({ method: 'post', path: '/locales/', handler: async (request) => {
    const input = createBody(request.body);
    const ctx = request.context;
    return answer(ctx.env, input.code, await createLocale(deps.bus, ctx, input), 201);
  } });

  routes.push({ method: 'put', path: '/locales/:code/', handler: async (request) => {
    const { code: sent, ...changes } = updateBody(request.body);
    const code = param(request, 'code');
    if (sent !== undefined && sent !== code) {
      throw new DomainError('validation_error', 'A locale code cannot change; create a new locale instead.', { code: ['cannot be changed'] });
    }
    const ctx = request.context;
    return answer(ctx.env, code, await updateLocale(deps.bus, ctx, code, changes), 200);
  } });

  routes.push({ method: 'delete', path: '/locales/:code/', handler: async (request) => {
    const deleted = await deleteLocale(deps.bus, request.context, param(request, 'code'));
    await deps.projections.waitFor(deleted.position, deps.waitTimeoutMs);
    return { status: 204 };
  } });

  return routes;
}
