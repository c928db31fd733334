import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { openChainSource } from '../audit/chain-source.js';
import { verifyWithCheckpoints } from '../audit/checkpoint-verify.js';
import { loadPublicKey } from '../audit/signing-key.js';
import { loadConfig, type Config } from '../config.js';
import { openEventStoreOf } from './event-store.js';

export const VERIFY_USAGE = `usage: npm run verify -- [--data-dir DIR] [--public-key FILE]
Recomputes the SHA-256 chain of the event log; prints the report as JSON; exits 1 at a break.
--public-key: also checks every signed audit checkpoint with that Ed25519 key (PEM) and that the
chain has each checkpoint's hash at its place; exits 1 at the first checkpoint that disagrees.`;

/** `npm run verify`: 0 when the chain holds, 1 at a break, 2 on bad arguments or no chain. */
export async function verifyCli(argv: readonly string[], env: NodeJS.ProcessEnv, out: Writable, err: Writable): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: [...argv], options: { 'data-dir': { type: 'string' }, 'public-key': { type: 'string' }, help: { type: 'boolean' } }, strict: true }).values;
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}\n${VERIFY_USAGE}\n`);
    return 2;
  }
  if (args.help) {
    out.write(`${VERIFY_USAGE}\n`);
    return 0;
  }
  const config = loadConfig(args['data-dir'] === undefined ? env : { ...env, DATA_DIR: args['data-dir'] });
  if (args['public-key'] !== undefined) {
    let key;
    try {
      key = loadPublicKey(readFileSync(args['public-key']));
    } catch (error) {
      err.write(`--public-key ${args['public-key']}: ${error instanceof Error ? error.message : String(error)}\n`);
      return 2;
    }
    return verifySigned(config, key, out, err);
  }
  const store = await openEventStoreOf(config);
  try {
    if (!store.verifyChain) {
      err.write('this event store keeps no hash chain\n');
      return 2;
    }
    const report = await store.verifyChain();
    out.write(`${JSON.stringify(report, null, 2)}\n`);
    return report.verified ? 0 : 1;
  } finally {
    await store.close();
  }
}

async function verifySigned(config: Config, key: ReturnType<typeof loadPublicKey>, out: Writable, err: Writable): Promise<number> {
  const source = await openChainSource(config);
  try {
    const report = await verifyWithCheckpoints(() => source.rows(), key);
    out.write(`${JSON.stringify(report, null, 2)}\n`);
    const failure = report.checkpoints.first_failure;
    if (failure) err.write(`checkpoint ${failure.checkpoint} (position ${failure.position}, ${failure.events} events): ${failure.reason}: ${failure.message}\n`);
    return report.verified ? 0 : 1;
  } finally {
    await source.close();
  }
}
