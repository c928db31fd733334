import { createHash, createSign } from 'node:crypto';

/** A `Date` value as the product's client libraries send it: UTC, whole seconds. */
export const dateHeader = (at: Date = new Date()): string => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The headers a request gets from the product's client libraries with a Secure key: the
 * Base64 DER private key wrapped as a SEC1 PEM, ECDSA P-256 / SHA-256 over
 * `<path without query>|<sha256 hex of the body>|<Date>`, the DER signature in Base64.
 */
export function secureHeaders(publicKey: string, secretKey: string, url: string, body = '', date = dateHeader()): Record<string, string> {
  const pem = `-----BEGIN EC PRIVATE KEY-----\n${(secretKey.match(/.{1,64}/g) ?? []).join('\n')}\n-----END EC PRIVATE KEY-----`;
  const path = new URL(url).pathname || '/';
  const hash = createHash('sha256').update(body).digest('hex');
  const signer = createSign('SHA256');
  signer.update(`${path}|${hash}|${date}`);
  signer.end();
  const signature = signer.sign({ key: pem, dsaEncoding: 'der' }).toString('base64');
  return { authorization: `Secure ${publicKey}:${signature}`, date };
}

const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

const derInteger = (value: bigint): Buffer => {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let bytes = Buffer.from(hex, 'hex');
  if ((bytes[0] as number) & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
};

/** The same ECDSA signature with `s` replaced by `n - s`: also valid, but other bytes (a replay attempt). */
export function negateS(signature: Buffer): Buffer {
  const rLength = signature[3] as number;
  const r = BigInt(`0x${signature.subarray(4, 4 + rLength).toString('hex')}`);
  const sAt = 4 + rLength;
  const s = BigInt(`0x${signature.subarray(sAt + 2, sAt + 2 + (signature[sAt + 1] as number)).toString('hex')}`);
  const body = Buffer.concat([derInteger(r), derInteger(P256_ORDER - s)]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}
