/** The `Authorization` header of a request, by scheme (case-insensitive scheme names). */
export type Credentials =
  | { readonly scheme: 'secure'; readonly publicKey: string; readonly signature: string }
  | { readonly scheme: 'simple'; readonly publicKey: string; readonly secret: string }
  | { readonly scheme: 'bearer'; readonly token: string };

/** Why a request is not authenticated: each 401 says which, and what to send instead. */
export type AuthFailure = 'missing' | 'unknown_scheme' | 'bad_format' | 'unknown_credential';

export const AUTH_FAILURE_MESSAGES: Readonly<Record<AuthFailure, string>> = {
  missing: 'No Authorization header was sent: send `Authorization: Bearer <token>`, or a key as `Simple <public_key>:<secret_key>` or `Secure <public_key>:<signature>`.',
  unknown_scheme: 'The Authorization header does not start with a known scheme: use Bearer, Simple or Secure.',
  bad_format:
    'The Authorization header is not in its scheme\'s format: `Bearer <token>`, `Simple <public_key>:<secret_key>` or `Secure <public_key>:<signature>`.',
  unknown_credential: 'The credential is unknown, revoked or does not match (a wrong token or secret, an expired signature date, a replayed signature).',
};

/** null: no header; otherwise the credentials, or why the header is none of the schemes. */
export function parseCredentials(header: string | undefined): Credentials | null | 'unknown_scheme' | 'bad_format' {
  if (header === undefined || header.trim() === '') return null;
  const match = /^(Secure|Simple|Bearer)\s+(\S+)$/i.exec(header.trim());
  if (!match) return /^(Secure|Simple|Bearer)(\s|$)/i.test(header.trim()) ? 'bad_format' : 'unknown_scheme';
  const scheme = (match[1] as string).toLowerCase();
  const value = match[2] as string;
  if (scheme === 'bearer') return { scheme, token: value };
  const at = value.indexOf(':');
  if (at <= 0 || at === value.length - 1) return 'bad_format';
  const publicKey = value.slice(0, at);
  const rest = value.slice(at + 1);
  return scheme === 'secure' ? { scheme, publicKey, signature: rest } : { scheme: 'simple', publicKey, secret: rest };
}

/** The failure a parse result is, or null when it holds credentials. */
export const parseFailure = (parsed: Credentials | null | 'unknown_scheme' | 'bad_format'): AuthFailure | null =>
  parsed === null ? 'missing' : typeof parsed === 'string' ? parsed : null;
