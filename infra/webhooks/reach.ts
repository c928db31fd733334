import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { hostOf, isPublicAddress, urlRefusal } from '../../domain/webhook/address.js';

export type Resolve = (host: string) => Promise<readonly string[]>;

const resolveAll: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * At delivery time (docs/decisions/0356): the URL's rules again, then every address its host
 * resolves to must be public, unless private networks are allowed. Throws with the reason.
 */
export async function refuseUnreachable(url: string, allowPrivate: boolean, resolve: Resolve = resolveAll): Promise<void> {
  const refusal = urlRefusal(url, allowPrivate);
  if (refusal !== null) throw new Error(`refused: the URL ${refusal}`);
  if (allowPrivate) return;
  const host = hostOf(url);
  const addresses = ipaddr.isValid(host) ? [host] : await resolve(host);
  const private_ = addresses.find((address) => !isPublicAddress(address));
  if (private_ !== undefined) throw new Error(`refused: ${host} resolves to ${private_}, not a public address`);
}
