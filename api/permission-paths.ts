import type { KeyKind } from '../domain/api-keys/events.js';

/**
 * Where keys and roles of each kind live: `/permissions/{management-api|delivery-api}/...`,
 * with `flux-api` accepted for `delivery-api` as the product's client libraries send it.
 */
export const PERMISSION_BASES: readonly { readonly base: string; readonly kind: KeyKind }[] = [
  { base: '/permissions/management-api', kind: 'management' },
  { base: '/permissions/delivery-api', kind: 'delivery' },
  { base: '/permissions/flux-api', kind: 'delivery' },
];
