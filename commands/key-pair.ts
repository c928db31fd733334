import { createHash, generateKeyPairSync } from 'node:crypto';

export type KeyPair = { readonly public_key: string; readonly secret_key: string };

/** A P-256 pair: public key as Base64 compressed point, private key as Base64 DER (SEC1). */
export function newKeyPair(): KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x as string, 'base64url');
  const y = Buffer.from(jwk.y as string, 'base64url');
  const compressed = Buffer.concat([Buffer.from([(y[y.length - 1] ?? 0) & 1 ? 0x03 : 0x02]), x]);
  return {
    public_key: compressed.toString('base64'),
    secret_key: (privateKey.export({ type: 'sec1', format: 'der' }) as Buffer).toString('base64'),
  };
}

export const secretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');
