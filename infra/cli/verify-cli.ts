import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openEventStoreOf } from './event-store.js';

export const VERIFY_USAGE = `usage: npm run verify -- [--data-dir DIR]
Recomputes the SHA-256 chain of the event log; prints the report as JSON; exits 1 at a break.`;

/** `npm run verify`: 0 when the chain holds, 1 at a break, 2 on bad arguments or no chain. */
export async function verifyCli(argv: readonly string[], env: NodeJS.ProcessEnv, out: Writable, err: Writable): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: [...argv], options: { 'data-dir': { type: 'string' }, help: { type: 'boolean' } }, strict: true }).values;
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}\n${VERIFY_USAGE}\n`);
    return 2;
  }
  if (args.help) {
    out.write(`${VERIFY_USAGE}\n`);
    return 0;
  }
  const store = await openEventStoreOf(loadConfig(args['data-dir'] === undefined ? env : { ...env, DATA_DIR: args['data-dir'] }));
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
