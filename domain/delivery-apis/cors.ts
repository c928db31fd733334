import { DomainError } from '../errors.js';
import { own } from '../records.js';

export const MAX_CORS_ORIGINS = 100;

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/** One origin normalised (lowercase, default port dropped), or null when it is not a bare origin. */
export function normalizeOrigin(value: string): string | null {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#@\s]+)$/.exec(value);
  if (!match) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const defaultPort = own(DEFAULT_PORTS, url.protocol);
  if (defaultPort === undefined || url.username || url.password || !url.hostname) return null;
  const port = url.port && url.port !== defaultPort ? `:${url.port}` : '';
  return `${url.protocol}//${url.hostname.toLowerCase()}${port}`;
}

/** Explicit origins, or `["*"]` alone; at most 100; duplicates after normalisation collapse. */
export function normalizeCorsOrigins(origins: readonly string[]): string[] {
  if (origins.length > MAX_CORS_ORIGINS) {
    throw new DomainError('validation_error', `At most ${MAX_CORS_ORIGINS} CORS origins.`, { cors_origins: [`at most ${MAX_CORS_ORIGINS} entries`] });
  }
  if (origins.includes('*')) {
    if (origins.length > 1) throw new DomainError('validation_error', '"*" must stand alone.', { cors_origins: ['"*" must be the only entry'] });
    return ['*'];
  }
  const normalized: string[] = [];
  for (const origin of origins) {
    const one = normalizeOrigin(origin);
    if (one === null) throw new DomainError('validation_error', `Invalid origin: ${origin}`, { cors_origins: [`invalid origin: ${origin}`] });
    if (!normalized.includes(one)) normalized.push(one);
  }
  return normalized;
}
