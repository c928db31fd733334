import { createHmac } from 'node:crypto';

/**
 * The Standard Webhooks signature: HMAC-SHA256 over `<id>.<timestamp>.<body>` with the secret's
 * bytes (the base64 after `whsec_`), sent as `v1,<base64>` in `webhook-signature`.
 */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of one delivery attempt (`webhook-timestamp` in seconds, as the specification has it). */
export function signedHeaders(secret: string, id: string, body: string, now: number): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, id, timestamp, body),
  };
}
