/** The `Authorization` header of a request, by scheme (case-insensitive scheme names). */
export type Credentials =
  | { readonly scheme: 'secure'; readonly publicKey: string; readonly signature: string }
  | { readonly scheme: 'simple'; readonly publicKey: string; readonly secret: string }
  | { readonly scheme: 'bearer'; readonly token: string };

/** null: no header; 'malformed': a header that is none of the schemes. */
export function parseCredentials(header: string | undefined): Credentials | null | 'malformed' {
  if (header === undefined || header.trim() === '') return null;
  const match = /^(Secure|Simple|Bearer)\s+(\S+)$/i.exec(header.trim());
  if (!match) return 'malformed';
  const scheme = (match[1] as string).toLowerCase();
  const value = match[2] as string;
  if (scheme === 'bearer') return { scheme, token: value };
  const at = value.indexOf(':');
  if (at <= 0 || at === value.length - 1) return 'malformed';
  const publicKey = value.slice(0, at);
  const rest = value.slice(at + 1);
  return scheme === 'secure' ? { scheme, publicKey, signature: rest } : { scheme: 'simple', publicKey, secret: rest };
}
