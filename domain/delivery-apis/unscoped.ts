import { DomainError } from '../errors.js';

const refuse = (message: string, field: string): DomainError => new DomainError('validation_error', message, { [field]: [message] });

/**
 * Cross-parent read levels of a strict-reference connection: 0 is fully flat, level L keeps
 * the first L ancestor keys. They are sent with the live key-bearing ancestor chain (root
 * first); a level with an empty chain, a stale chain, or a level the chain does not have is
 * refused.
 */
export function checkUnscoped(
  connection: { readonly unscoped_levels: readonly number[]; readonly unscoped_ancestors: readonly string[] },
  liveChain: readonly string[],
): void {
  const { unscoped_levels: levels, unscoped_ancestors: chain } = connection;
  if (levels.length === 0) {
    if (chain.length > 0) throw refuse('unscoped_ancestors must be sent together with unscoped_levels.', 'unscoped_ancestors');
    return;
  }
  if (chain.length === 0) throw refuse('A level needs the key-bearing ancestor chain in unscoped_ancestors.', 'unscoped_ancestors');
  if (liveChain.length === 0) throw refuse('The collection has no key-bearing ancestor: it has no cross-parent addresses.', 'unscoped_levels');
  if (chain.length !== liveChain.length || chain.some((key, i) => key !== liveChain[i])) {
    throw refuse(`unscoped_ancestors must be the live ancestor chain, root first: ${liveChain.join(', ')}.`, 'unscoped_ancestors');
  }
  const bad = levels.filter((level) => !Number.isInteger(level) || level < 0 || level >= liveChain.length);
  if (bad.length > 0) throw refuse(`Levels run from 0 to ${liveChain.length - 1}.`, 'unscoped_levels');
}
