import { expect } from 'chai';
import { generateKeyPairSync, sign as ecSign } from 'node:crypto';
import { newKeyPair } from '../../commands/key-pair.js';
import { keyFromCredentials } from '../../read-api/auth/key-lookup.js';
import { bodyHash, signatureId, signedString, timestampOf, verifySignature } from '../../read-api/auth/secure-signature.js';
import type { Doc, ReadStore } from '../../projections/ports.js';
import { SqliteUsedSignatures } from '../../infra/sqlite/used-signatures.js';
import { negateS, secureHeaders } from '../support/secure-signing.js';
import { tempDir } from '../support/temp.js';

/**
 * A fixed vector made outside this code base, with OpenSSL, the way the product's client
 * libraries sign: a P-256 key (public part as a Base64 compressed point), the request
 * path without its query, the SHA-256 hex of the body, the Date, and the DER signature in
 * Base64. The private key is not kept: verifying needs only the public part.
 */
const VECTOR = {
  public_key: 'AjDT1FDIYyyecdstJBV8GkNWyUFiNvi1ypixYrnvRDTS',
  path: '/env1/site/articles/',
  body: '{"data":{"title":"Hello"}}',
  body_sha256: 'f45cb6e885ff2c6c70887b9ecb66f201afc4609c05b32cfc68b1aa06fe527ae9',
  date: '2026-03-14T09:26:53Z',
  signature: 'MEUCIFuyiAufhMz0KMLgRP+Vl3N7LPcUVwOO2HSiGu+MOBCCAiEAyq+QMFxdlvHqHE6Q3CyJnySGUJggmTR2Fd6xDtYwpbU=',
};

/** A ReadStore holding one delivery key, enough for keyFromCredentials. */
const storeWith = (doc: Doc): ReadStore =>
  ({
    collection: () => ({
      find: async (filter: Record<string, unknown>) => (Object.entries(filter).every(([k, v]) => doc[k] === v) ? [doc] : []),
    }),
  }) as unknown as ReadStore;

describe('Secure signatures', () => {
  it('hashes the body and builds the signed string as the client libraries do', () => {
    expect(bodyHash(Buffer.from(VECTOR.body))).to.equal(VECTOR.body_sha256);
    expect(bodyHash(undefined)).to.equal('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(signedString(VECTOR.path, Buffer.from(VECTOR.body), VECTOR.date)).to.equal(`${VECTOR.path}|${VECTOR.body_sha256}|${VECTOR.date}`);
  });

  it('verifies the fixed vector and refuses it with any part changed', () => {
    const data = signedString(VECTOR.path, Buffer.from(VECTOR.body), VECTOR.date);
    expect(verifySignature(VECTOR.public_key, data, VECTOR.signature)).to.equal(true);
    expect(verifySignature(VECTOR.public_key, data.replace('articles', 'article'), VECTOR.signature)).to.equal(false);
    expect(verifySignature(VECTOR.public_key, data.replace('09:26:53', '09:26:54'), VECTOR.signature)).to.equal(false);
    expect(verifySignature(newKeyPair().public_key, data, VECTOR.signature)).to.equal(false);
    expect(verifySignature('not-a-key', data, VECTOR.signature)).to.equal(false);
    expect(verifySignature(VECTOR.public_key, data, 'AAAA')).to.equal(false);
  });

  it('accepts the fixed vector through the key lookup within the window, once', async () => {
    const store = storeWith({ _id: 'k', key: 'k', kind: 'delivery', env: 'env1', public_key: VECTOR.public_key });
    const credentials = { scheme: 'secure', publicKey: VECTOR.public_key, signature: VECTOR.signature } as const;
    const request = (now: number) => ({ path: VECTOR.path, body: Buffer.from(VECTOR.body), date: VECTOR.date, now });
    const at = Date.parse(VECTOR.date);
    const replays = new SqliteUsedSignatures(`${tempDir()}/signatures.db`);
    expect(await keyFromCredentials(store, 'delivery', credentials, request(at + 16 * 60_000), replays)).to.equal(null);
    expect(await keyFromCredentials(store, 'delivery', credentials, request(at - 16 * 60_000), replays)).to.equal(null);
    expect((await keyFromCredentials(store, 'delivery', credentials, request(at + 14 * 60_000), replays))?.key).to.equal('k');
    expect(await keyFromCredentials(store, 'delivery', credentials, request(at + 14 * 60_000), replays)).to.equal(null);
    const malleated = { ...credentials, signature: negateS(Buffer.from(VECTOR.signature, 'base64')).toString('base64') };
    expect(verifySignature(VECTOR.public_key, signedString(VECTOR.path, Buffer.from(VECTOR.body), VECTOR.date), malleated.signature)).to.equal(true);
    expect(await keyFromCredentials(store, 'delivery', malleated, request(at + 60_000), replays)).to.equal(null);
    expect(await keyFromCredentials(store, 'management', credentials, request(at), new SqliteUsedSignatures(`${tempDir()}/other.db`))).to.equal(null);
  });

  it('verifies what the client-library signer makes from a key pair this service issued', () => {
    const pair = newKeyPair();
    const headers = secureHeaders(pair.public_key, pair.secret_key, 'http://127.0.0.1:1/e/p/c/?limit=5', '{}', '2026-01-01T00:00:00Z');
    const [, credential] = (headers.authorization as string).split(' ');
    const signature = (credential as string).split(':')[1] as string;
    expect(verifySignature(pair.public_key, signedString('/e/p/c/', Buffer.from('{}'), '2026-01-01T00:00:00Z'), signature)).to.equal(true);
    expect(verifySignature(pair.public_key, signedString('/e/p/c/?limit=5', Buffer.from('{}'), '2026-01-01T00:00:00Z'), signature)).to.equal(false);
  });

  it('reads only whole-second UTC dates and identifies a signature by its r half', () => {
    expect(timestampOf('2026-03-14T09:26:53Z')).to.equal(Date.parse('2026-03-14T09:26:53Z'));
    for (const bad of [undefined, '2026-03-14T09:26:53.000Z', '2026-03-14 09:26:53Z', 'Sat, 14 Mar 2026 09:26:53 GMT', '2026-13-44T09:26:53Z']) expect(timestampOf(bad)).to.equal(null);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const sig = ecSign('sha256', Buffer.from('x'), { key: privateKey, dsaEncoding: 'der' });
    expect(signatureId(sig)).to.equal(signatureId(negateS(sig)));
    expect(signatureId(Buffer.from('nope'))).to.equal(null);
  });
});
