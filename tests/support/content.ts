import { expect } from 'chai';
import type { TestService } from './service.js';

/** Management paths of the service's environment. */
export const v1 = (s: Pick<TestService, 'env'>, path: string): string => `/v1/${s.env}${path}`;

/** A collection with a published schema of a required `title` string (and an optional `views` integer). */
export async function collectionWithSchema(
  s: Pick<TestService, 'api' | 'env'>,
  alias: string,
  options: { parent?: string | null; strict?: boolean; body?: Record<string, unknown> } = {},
): Promise<string> {
  const c = await s.api('POST', v1(s, '/collections/tree/'), { name: alias, alias, parent: options.parent ?? null, strict_reference: options.strict ?? false, ...options.body });
  expect(c.status, JSON.stringify(c.body)).to.equal(201);
  const key = c.body.key as string;
  const v = await s.api('POST', v1(s, `/collections/${key}/model/versions/`), {});
  await s.api('POST', v1(s, `/collections/${key}/model/versions/${v.body.key}/schema/tree/`), { key: 'title', type: 'string', required: true });
  await s.api('POST', v1(s, `/collections/${key}/model/versions/${v.body.key}/schema/tree/`), { key: 'views', type: 'integer', meta: { minimum: 0 } });
  const published = await s.api('POST', v1(s, `/collections/${key}/model/versions/${v.body.key}/publish/`), {});
  expect(published.status).to.equal(200);
  return key;
}

/** Calls `probe` until `done` holds for its answer (bounded); for reads after a wait=false write. */
export async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await probe();
  for (let i = 0; !done(value) && i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = await probe();
  }
  return value;
}
