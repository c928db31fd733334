import { existsSync, writeFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { newKeyPair } from '../audit/signing-key.js';

export const KEYGEN_USAGE = `usage: npm run audit:keygen -- --private FILE --public FILE
Writes a new Ed25519 key pair in PEM for signed audit checkpoints: the private key (mode 0600) for
AUDIT_SIGNING_KEY_FILE, kept outside the data directory, and the public key for auditors.`;

/** `npm run audit:keygen`: 0 when written, 1 when a file exists already, 2 on bad arguments. */
export async function auditKeygenCli(argv: readonly string[], out: Writable, err: Writable): Promise<number> {
  let args;
  try {
    args = parseArgs({ args: [...argv], options: { private: { type: 'string' }, public: { type: 'string' }, help: { type: 'boolean' } }, strict: true }).values;
    if (!args.help && (!args.private || !args.public)) throw new Error('--private FILE and --public FILE are required');
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}\n${KEYGEN_USAGE}\n`);
    return 2;
  }
  if (args.help || !args.private || !args.public) {
    out.write(`${KEYGEN_USAGE}\n`);
    return 0;
  }
  const taken = [args.private, args.public].filter((file) => existsSync(file));
  if (taken.length > 0) {
    err.write(`${taken.join(' and ')} exists already: no key was written\n`);
    return 1;
  }
  const { privateKeyPem, publicKeyPem } = newKeyPair();
  try {
    // `wx`: an existing key is never overwritten.
    writeFileSync(args.private, privateKeyPem, { mode: 0o600, flag: 'wx' });
    writeFileSync(args.public, publicKeyPem, { mode: 0o644, flag: 'wx' });
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  out.write(`wrote the private key to ${args.private} and the public key to ${args.public}\n`);
  return 0;
}
