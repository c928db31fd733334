import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CHECKPOINT_STREAM } from '../../domain/audit-checkpoint.js';
import { openChainSource } from '../audit/chain-source.js';
import { serialiseLine } from '../audit/event-line.js';
import { keyId, loadPublicKey } from '../audit/signing-key.js';
import { loadConfig, type Config } from '../config.js';
import { writeLines } from './export-cli.js';
import { eventsBar } from './progress-bar.js';

export const BUNDLE_USAGE = `usage: npm run audit:bundle -- --out FILE [--public-key FILE] [--data-dir DIR]
Writes an audit evidence bundle: a header line (the public key, the standalone verifier script of
docs/guides/auditor.md), then every event as npm run export writes it, the signed checkpoints among them.
The public key is FILE's, else the public half of AUDIT_SIGNING_KEY_FILE.`;

/** The standalone verifier, one copy in the repository (docs/guides/auditor.md prints it; a test keeps the two equal). */
export const VERIFIER_FILE = 'infra/audit/verify-bundle.mjs';

/** The repository's root: the nearest folder above this module with a package.json (from the sources or from dist/). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('no package.json above the audit bundle module');
    dir = up;
  }
  return dir;
}

export const verifierSource = (): string => readFileSync(join(projectRoot(), VERIFIER_FILE), 'utf8');

/** `npm run audit:bundle`: 0 when written, 2 on bad arguments. */
export async function auditBundleCli(argv: readonly string[], env: NodeJS.ProcessEnv, out: Writable, err: Writable): Promise<number> {
  let args;
  let publicKeyPem: string;
  let config: Config;
  try {
    args = parseArgs({ args: [...argv], options: { out: { type: 'string' }, 'public-key': { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean' } }, strict: true }).values;
    if (args.help) {
      out.write(`${BUNDLE_USAGE}\n`);
      return 0;
    }
    if (!args.out) throw new Error('--out FILE is required');
    config = loadConfig(args['data-dir'] === undefined ? env : { ...env, DATA_DIR: args['data-dir'] });
    const keyFile = args['public-key'] ?? config.audit.signingKeyFile;
    if (!keyFile) throw new Error('--public-key FILE is required when AUDIT_SIGNING_KEY_FILE is not set');
    publicKeyPem = loadPublicKey(readFileSync(keyFile)).export({ type: 'spki', format: 'pem' }).toString();
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}\n${BUNDLE_USAGE}\n`);
    return 2;
  }
  const source = await openChainSource(config);
  const bar = eventsBar(err, 'bundling');
  let checkpoints = 0;
  try {
    bar.start(source.total);
    const header = { bundle: 'audit-evidence-v1', created: new Date().toISOString(), key: keyId(loadPublicKey(publicKeyPem)), public_key: publicKeyPem, verifier: verifierSource() };
    const lines = async function* () {
      yield JSON.stringify(header);
      for await (const row of source.rows()) {
        if (row.stream === CHECKPOINT_STREAM) checkpoints += 1;
        yield serialiseLine(row);
      }
    };
    const count = await writeLines(args.out, lines(), (done) => bar.update(done));
    bar.stop();
    out.write(`wrote ${count - 1} events (${checkpoints} signed checkpoints among them) and the public key to ${args.out}; verify it with: node verify-bundle.mjs ${args.out} PUBLIC_KEY.pem\n`);
    return 0;
  } finally {
    bar.stop();
    await source.close();
  }
}
