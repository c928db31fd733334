import { END, START, type Position as EsdbPosition, type ReadPosition } from '@eventstore/db-client';
import type { Position } from '../../commands/ports.js';

/**
 * Our Position is an opaque string that orders as a string. EventStoreDB's is
 * {commit, prepare} (two unsigned 64-bit integers, at most 20 digits each): both are
 * zero-padded so that string order is log order. '' (START) is the beginning.
 */
const WIDTH = 20;
const PATTERN = /^(\d{1,20}):(\d{1,20})$/;

export const encodePosition = (position: EsdbPosition): Position =>
  `${position.commit.toString().padStart(WIDTH, '0')}:${position.prepare.toString().padStart(WIDTH, '0')}`;

export function decodePosition(position: Position): EsdbPosition {
  const match = PATTERN.exec(position);
  if (!match?.[1] || !match[2]) throw new Error(`not an EventStoreDB position: ${JSON.stringify(position)}`);
  return { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
}

/** Where a read from `position` starts: START or END stand in for '' depending on direction. */
export const readPosition = (position: Position, empty: typeof START | typeof END): ReadPosition =>
  position === '' ? empty : decodePosition(position);
