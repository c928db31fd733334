import { createHash, timingSafeEqual } from 'node:crypto';
import type { KeyKind } from '../../domain/api-keys/events.js';
import type { Doc, ReadStore } from '../../projections/ports.js';
import type { Credentials } from './credentials.js';
import { KEPT_MS, signatureId, signedString, timestampOf, verifySignature, withinWindow, type UsedSignatures } from './secure-signature.js';

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

/** Where a key is looked up: by its token's hash (Bearer) or its public key (Secure, Simple). */
export const lookupId = (credentials: Credentials): string =>
  credentials.scheme === 'bearer' ? `token:${sha256(credentials.token).toString('hex')}` : `public:${credentials.publicKey}`;

/** The live key of `kind` the credentials name (not yet proven), or null. */
export async function findKey(store: ReadStore, kind: KeyKind, credentials: Credentials): Promise<Doc | null> {
  const keys = store.collection('api_keys');
  if (credentials.scheme === 'bearer') {
    if (kind !== 'delivery' || !credentials.token.startsWith(BEARER_TOKEN_PREFIX)) return null;
    const [doc] = await keys.find({ bearer_token_hash: sha256(credentials.token).toString('hex'), kind }, { limit: 1 });
    return doc ?? null;
  }
  const [doc] = await keys.find({ public_key: credentials.publicKey, kind }, { limit: 1 });
  return doc ?? null;
}

/**
 * Whether the credentials prove the key, replays aside. Secure: the signature over the request
 * within the window; Simple: the secret against its stored hash; Bearer: a `dlv_` token against
 * its stored hash. Hashes are compared in constant time.
 */
export function proves(doc: Doc, credentials: Credentials, request: SignedRequest): boolean {
  if (credentials.scheme === 'bearer') return credentials.token.startsWith(BEARER_TOKEN_PREFIX) && sameDigest(doc.bearer_token_hash, sha256(credentials.token));
  if (doc.public_key !== credentials.publicKey) return false;
  if (credentials.scheme === 'simple') return sameDigest(doc.secret_hash, sha256(credentials.secret));
  const at = timestampOf(request.date);
  if (at === null || !withinWindow(at, request.now)) return false;
  return verifySignature(credentials.publicKey, signedString(request.path, request.body, request.date as string), credentials.signature);
}

/** `proves`, and a Secure signature never twice: its first use is recorded where every process sees it. */
export async function provesOnce(doc: Doc, credentials: Credentials, request: SignedRequest, used: UsedSignatures): Promise<boolean> {
  if (!proves(doc, credentials, request)) return false;
  if (credentials.scheme !== 'secure') return true;
  const id = signatureId(Buffer.from(credentials.signature, 'base64'));
  return id !== null && used.firstUse(`${credentials.publicKey}:${id}`, request.now + KEPT_MS, request.now);
}

/** The live key of `kind` the credentials prove, or null. */
export async function keyFromCredentials(store: ReadStore, kind: KeyKind, credentials: Credentials, request: SignedRequest, used: UsedSignatures): Promise<Doc | null> {
  const doc = await findKey(store, kind, credentials);
  return doc && (await provesOnce(doc, credentials, request, used)) ? doc : null;
}

/** The path a client signed: the URL path without the query string. */
export const signedPath = (originalUrl: string): string => originalUrl.split('?')[0] || '/';

/** The raw request body the JSON parser captured (infra/http/raw-body.ts). */
export const rawBodyOf = (req: object): Buffer | undefined => (req as { rawBody?: Buffer }).rawBody;
