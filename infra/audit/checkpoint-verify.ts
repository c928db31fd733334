import type { KeyObject } from 'node:crypto';
import type { ChainReport, Position } from '../../commands/ports.js';
import { checkpointMessage, CHECKPOINT_STREAM, type SignedCheckpoint } from '../../domain/audit-checkpoint.js';
import { ChainVerifier, chainHash, GENESIS, type StoredChainRow } from './hash-chain.js';
import { keyId, verifySignature } from './signing-key.js';

/** Why a checkpoint does not vouch for the log. */
export type CheckpointFailure = {
  /** 1-based, in the order they were signed. */
  readonly checkpoint: number;
  readonly position: Position;
  readonly events: number;
  readonly reason: 'bad_signature' | 'other_key' | 'head_mismatch' | 'beyond_log';
  readonly message: string;
};

export type CheckpointReport = {
  readonly verified: boolean;
  readonly key: string;
  readonly checked: number;
  /** The newest checkpoint that holds, or null. */
  readonly last_signed: { readonly position: Position; readonly events: number; readonly time: string } | null;
  /** Events of the log after the newest checkpoint (no signature vouches for them yet). */
  readonly unsigned_events: number;
  readonly first_failure: CheckpointFailure | null;
};

/**
 * Checks the chain and the signed checkpoints against it (docs/decisions/0345): every checkpoint's
 * signature with `publicKey`, then, walking the log once, that the hash recomputed over the first
 * `events` events is the checkpoint's `head_hash`. A rewrite before a checkpoint changes that hash
 * even when every stored hash after it was recomputed. `rows` is read twice: once for the
 * checkpoints, once for the chain.
 */
export async function verifyWithCheckpoints(rows: () => AsyncIterable<StoredChainRow>, publicKey: KeyObject): Promise<ChainReport & { checkpoints: CheckpointReport }> {
  const key = keyId(publicKey);
  const checkpoints: SignedCheckpoint[] = [];
  for await (const row of rows()) if (row.stream === CHECKPOINT_STREAM) checkpoints.push(JSON.parse(row.data) as SignedCheckpoint);
  checkpoints.sort((a, b) => a.events - b.events);

  let failure: CheckpointFailure | null = null;
  const fail = (index: number, cp: SignedCheckpoint, reason: CheckpointFailure['reason'], message: string): void => {
    if (!failure || index < failure.checkpoint) failure = { checkpoint: index + 1, position: cp.position, events: cp.events, reason, message };
  };
  checkpoints.forEach((cp, i) => {
    if (cp.key !== key) fail(i, cp, 'other_key', `signed by key ${cp.key}, not ${key}`);
    else if (!verifySignature(publicKey, checkpointMessage(cp), cp.signature)) fail(i, cp, 'bad_signature', 'the signature does not match the checkpoint');
  });

  const verifier = new ChainVerifier();
  let recomputed = GENESIS;
  let count = 0;
  let next = 0;
  for await (const row of rows()) {
    verifier.next(row);
    recomputed = chainHash(recomputed, row);
    count += 1;
    while (next < checkpoints.length && checkpoints[next]!.events === count) {
      const cp = checkpoints[next]!;
      if (cp.head_hash !== recomputed) fail(next, cp, 'head_mismatch', `the log's hash after ${count} events (at ${row.position}) is ${recomputed}, the checkpoint signed ${cp.head_hash}`);
      next += 1;
    }
  }
  for (; next < checkpoints.length; next++) fail(next, checkpoints[next]!, 'beyond_log', `signs ${checkpoints[next]!.events} events; the log has ${count}`);
  const found = failure as CheckpointFailure | null;
  const holding = checkpoints.slice(0, found ? found.checkpoint - 1 : checkpoints.length);
  const last = holding[holding.length - 1];
  const chain = verifier.report();
  return {
    ...chain,
    verified: chain.verified && found === null,
    checkpoints: {
      verified: found === null,
      key,
      checked: checkpoints.length,
      last_signed: last ? { position: last.position, events: last.events, time: last.time } : null,
      unsigned_events: count - (last?.events ?? 0),
      first_failure: found,
    },
  };
}
