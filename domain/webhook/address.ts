import ipaddr from 'ipaddr.js';

/**
 * Server-side request forgery (docs/decisions/0356): a webhook may only reach public addresses.
 * ipaddr.js names the range of an address; only `unicast` (what no special-purpose registry
 * claims) is public. Loopback, private, link-local (the cloud metadata address among them),
 * unique-local, carrier-grade NAT, multicast, reserved and the rest are refused; an IPv4-mapped
 * IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** The host of a URL without IPv6 brackets. */
const bare = (hostname: string): string => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);

/**
 * Why a webhook URL is refused before any name is resolved, or null: not http(s), credentials
 * in it, a literal address that is not public, or a `localhost` name.
 */
export function urlRefusal(url: string, allowPrivate: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must be an http: or https: URL';
  if (parsed.username !== '' || parsed.password !== '') return 'must not carry credentials';
  if (allowPrivate) return null;
  const host = bare(parsed.hostname).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not name a loopback host';
  if (ipaddr.isValid(host) && !isPublicAddress(host)) return 'must be a public address';
  return null;
}

export const hostOf = (url: string): string => bare(new URL(url).hostname);
