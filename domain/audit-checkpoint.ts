/** What a signed audit checkpoint holds and what its signature covers (docs/decisions/0344). */

/** A position in the global order of the log (as the event store writes it). */
type Position = string;

/** The stream the signed checkpoints are appended to (docs/decisions/0344). */
export const CHECKPOINT_STREAM = 'audit-checkpoints';
export const CHECKPOINT_EVENT = 'AuditCheckpointSigned';

/** A head of the hash chain: the `events`-th event of the log, at `position`, whose chained hash is `head_hash`. */
export type ChainHead = { readonly position: Position; readonly events: number; readonly head_hash: string; readonly time: string };

/** A checkpoint as stored: the head, its Ed25519 signature (base64) and the SHA-256 of the public key that checks it (hex). */
export type SignedCheckpoint = ChainHead & { readonly signature: string; readonly key: string };

/**
 * What is signed: the head's four fields in a JSON array, so that no field can be moved into
 * another. The bundle's standalone verifier (docs/guides/auditor.md) builds the same text.
 */
export const checkpointMessage = (head: ChainHead): string => JSON.stringify(['audit-checkpoint', head.position, head.events, head.head_hash, head.time]);
