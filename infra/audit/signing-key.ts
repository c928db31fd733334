import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { relative, isAbsolute } from 'node:path';

/** The SHA-256 of a public key's DER (SubjectPublicKeyInfo), hex: the `key` of each checkpoint it signed. */
export const keyId = (publicKey: KeyObject): string => createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex');

export type SigningKey = {
  readonly publicKeyPem: string;
  readonly id: string;
  /** The Ed25519 signature of `message` (UTF-8), base64. */
  sign(message: string): string;
};

const inside = (dir: string, file: string): boolean => {
  const rel = relative(realpathSync(dir), realpathSync(file));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * The checkpoint signer's key from AUDIT_SIGNING_KEY_FILE (an Ed25519 private key, PEM). Read
 * once, kept in memory, never written anywhere; a file inside the data directory is refused,
 * since whoever can rewrite the log could then sign the rewrite too (docs/decisions/0344).
 */
export function loadSigningKey(file: string, dataDir: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(readFileSync(file));
  } catch (error) {
    throw new Error(`AUDIT_SIGNING_KEY_FILE ${file}: not a readable private key in PEM (${error instanceof Error ? error.message : String(error)})`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`AUDIT_SIGNING_KEY_FILE ${file}: an Ed25519 key is required, not ${privateKey.asymmetricKeyType}`);
  try {
    if (inside(dataDir, file)) throw new Error(`AUDIT_SIGNING_KEY_FILE ${file} is inside the data directory ${dataDir}: keep the key where the data's writers cannot read it`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const publicKey = createPublicKey(privateKey);
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    id: keyId(publicKey),
    sign: (message) => sign(null, Buffer.from(message), privateKey).toString('base64'),
  };
}

/** A public key from PEM (the verifier's `--public-key`), Ed25519 only. */
export function loadPublicKey(pem: string | Buffer): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`an Ed25519 public key is required, not ${key.asymmetricKeyType}`);
  return key;
}

export const verifySignature = (publicKey: KeyObject, message: string, signature: string): boolean => verify(null, Buffer.from(message), publicKey, Buffer.from(signature, 'base64'));

/** A new key pair in PEM (`npm run audit:keygen`). */
export function newKeyPair(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}
