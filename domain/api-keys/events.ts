import type { Message } from '../decider.js';

/** Management or delivery: the two kinds share one environment stream and one quota. */
export type KeyKind = 'management' | 'delivery';

export type ApiKeyFields = {
  readonly env: string;
  readonly kind: KeyKind;
  readonly key: string;
  readonly description: string;
  readonly role: string | null;
  /** Base64 compressed P-256 public key. */
  readonly public_key: string;
  /** Hex SHA-256 of the secret key; the secret itself is shown once and never stored. */
  readonly secret_hash: string;
  readonly created_at: string;
  /** Most USD the key's writes may spend per billing cycle; null (or absent, in events from before it existed): no cap of its own (docs/decisions/0163). */
  readonly spend_cap_usd?: number | null;
};

/** The public fields a delete keeps as its audit snapshot (specification, Delete snapshots). */
export type ApiKeySnapshot = { readonly description: string; readonly public_key: string; readonly role_key: string | null };

type OfKey = { readonly env: string; readonly kind: KeyKind; readonly key: string };

export type ApiKeyCreated = Message<'ApiKeyCreated', ApiKeyFields>;
export type ApiKeyUpdated = Message<'ApiKeyUpdated', OfKey & { readonly description: string; readonly role: string | null; readonly spend_cap_usd?: number | null }>;
export type ApiKeyDeleted = Message<'ApiKeyDeleted', OfKey & { readonly snapshot: ApiKeySnapshot }>;
/** A bearer token for a delivery key: only its hash and its first 12 characters are kept. */
export type BearerTokenIssued = Message<
  'BearerTokenIssued',
  OfKey & { readonly role: string | null; readonly token_hash: string; readonly token_prefix: string; readonly issued_at: string }
>;
export type BearerTokenRevoked = Message<'BearerTokenRevoked', OfKey & { readonly role: string | null }>;

export type ApiKeysEvent = ApiKeyCreated | ApiKeyUpdated | ApiKeyDeleted | BearerTokenIssued | BearerTokenRevoked;
