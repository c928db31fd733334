import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { jsonMismatch, jsonValues, stepsOf, textMismatch, type Step } from '../support/guide-blocks.js';
import { startTestService, type TestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';

/** The guides, in the order a newcomer reads them: each goes on from the state the one before left. */
const GUIDES = ['writer', 'reader', 'auditor', 'operator'];
const MARK = '@@guide-step@@';

/**
 * A folder that looks like the repository (every top-level entry linked) with its own empty
 * `data/`: the guides' `data/bootstrap.json` and `npm run ...` work there as in a clone.
 */
function checkoutBeside(): string {
  const root = tempDir();
  for (const entry of readdirSync(resolve('.'))) if (entry !== 'data' && entry !== '.git') symlinkSync(resolve(entry), join(root, entry));
  mkdirSync(join(root, 'data'));
  return root;
}

/** Runs a guide's steps in one shell, in order (asynchronously: the service answers on this process's event loop); the output of each step. */
async function run(root: string, steps: readonly Step[]): Promise<string[]> {
  const script = steps.map((step) => `echo '${MARK}'\n${step.commands}`).join('\n');
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8' };
  const result = await promisify(execFile)('bash', ['-c', script], { cwd: root, encoding: 'utf8', timeout: 240_000, env, maxBuffer: 64 * 1024 * 1024 }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return result.stdout.split(`${MARK}\n`).slice(1);
}

describe('the guides: every command block runs, in order, against a fresh service and answers as the guide shows', function () {
  this.timeout(300_000);
  let root: string;
  let s: TestService;

  before(async () => {
    root = checkoutBeside();
    // The operator's signing key (kept outside the data directory) and the public key handed to auditors as audit.pub.pem.
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const keyFile = join(tempDir(), 'audit.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    writeFileSync(join(root, 'audit.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    s = await startTestService({ PLAN: 'starter', AUDIT_SIGNING_KEY_FILE: keyFile, AUDIT_CHECKPOINT_EVENTS: '10' }, join(root, 'data'));
  });
  after(() => s.stop());

  for (const guide of GUIDES) {
    it(`docs/guides/${guide}.md`, async () => {
      const steps = stepsOf(readFileSync(`docs/guides/${guide}.md`, 'utf8'));
      expect(steps.length, `${guide}.md has no command block`).to.be.greaterThan(2);
      const outputs = await run(root, steps);
      expect(outputs.length, 'every step ran').to.equal(steps.length);
      steps.forEach((step, i) => {
        const output = outputs[i] ?? '';
        if (step.answer === null) return;
        const where = `docs/guides/${guide}.md:${step.line}`;
        if (step.answer.kind === 'text') {
          const miss = textMismatch(step.answer.body, output);
          expect(miss, `${where}: ${miss}\n--- the step printed:\n${output}`).to.equal(null);
          return;
        }
        const values = jsonValues(output);
        expect(values.length, `${where}: printed no JSON:\n${output}`).to.be.greaterThan(0);
        const miss = jsonMismatch(JSON.parse(step.answer.body), values[values.length - 1]);
        expect(miss, `${where}: ${miss}\n--- the step printed:\n${output}`).to.equal(null);
      });
    });
  }
});
