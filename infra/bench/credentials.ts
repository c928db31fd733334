import { expect } from './http.js';
import type { Bootstrap } from './service.js';

type Issued = { bearer_token: string };

/** A delivery key without a role and its bearer token: what the authenticated scenario sends. */
export async function deliveryBearerToken(b: Bootstrap): Promise<string> {
  const keys = `${b.base_url}/v1/${b.environment}/permissions/delivery-api/api-keys/`;
  const key = await expect<{ key: string }>(201, 'create delivery key', keys, { method: 'POST', token: b.management_token, body: { description: 'bench' } });
  const issued = await expect<Issued>(201, 'issue bearer token', `${keys}${key.key}/bearer-token/`, { method: 'POST', token: b.management_token, body: {} });
  return issued.bearer_token;
}
