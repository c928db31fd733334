import { createHash, timingSafeEqual } from 'node:crypto';
import type { KeyKind } from '../../domain/api-keys/events.js';
import type { Doc, ReadStore } from '../../projections/ports.js';
import type { Credentials } from './credentials.js';
import { ReplayGuard, signatureId, signedString, timestampOf, verifySignature, withinWindow } from './secure-signature.js';

/** The literal prefix of delivery bearer tokens (a bearer credential without it is refused). */
export const BEARER_TOKEN_PREFIX = 'dlv_';

const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Equal hex digests, compared in constant time. */
function sameDigest(storedHex: unknown, given: Buffer): boolean {
  if (typeof storedHex !== 'string') return false;
  const stored = Buffer.from(storedHex, 'hex');
  return stored.length === given.length && timingSafeEqual(stored, given);
}

/** What a signed request carries besides its header: the path without the query, the raw body, the `Date` header. */
export type SignedRequest = { readonly path: string; readonly body: Buffer | undefined; readonly date: string | undefined; readonly now: number };

/**
 * The live key of `kind` the credentials prove, or null. Secure: the signature over the
 * request within the window, never twice; Simple: the secret against its stored hash;
 * Bearer (delivery keys only): a `dlv_` token against its stored hash.
 */
export async function keyFromCredentials(store: ReadStore, kind: KeyKind, credentials: Credentials, request: SignedRequest, replays: ReplayGuard): Promise<Doc | null> {
  const keys = store.collection('api_keys');
  if (credentials.scheme === 'bearer') {
    if (kind !== 'delivery' || !credentials.token.startsWith(BEARER_TOKEN_PREFIX)) return null;
    const digest = sha256(credentials.token);
    const [doc] = await keys.find({ bearer_token_hash: digest.toString('hex'), kind }, { limit: 1 });
    return doc && sameDigest(doc.bearer_token_hash, digest) ? doc : null;
  }
  const [doc] = await keys.find({ public_key: credentials.publicKey, kind }, { limit: 1 });
  if (!doc) return null;
  if (credentials.scheme === 'simple') return sameDigest(doc.secret_hash, sha256(credentials.secret)) ? doc : null;
  const at = timestampOf(request.date);
  if (at === null || !withinWindow(at, request.now)) return null;
  if (!verifySignature(credentials.publicKey, signedString(request.path, request.body, request.date as string), credentials.signature)) return null;
  const id = signatureId(Buffer.from(credentials.signature, 'base64'));
  if (id === null || !replays.accept(`${credentials.publicKey}:${id}`, request.now)) return null;
  return doc;
}

/** The audit actor of an API key (specification, Event object). */
export const keyActor = (doc: Doc): Record<string, unknown> => ({
  key: doc.key,
  description: doc.description,
  public_key: doc.public_key,
  role: doc.role,
  created_at: doc.created_at,
  environment: doc.env,
  deleted_at: null,
});

/** The path a client signed: the URL path without the query string. */
export const signedPath = (originalUrl: string): string => originalUrl.split('?')[0] || '/';

/** The raw request body the JSON parser captured (infra/http/raw-body.ts). */
export const rawBodyOf = (req: object): Buffer | undefined => (req as { rawBody?: Buffer }).rawBody;
