import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh temporary folder, removed when the test process exits. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cms-test-'));
  made.push(dir);
  return dir;
}

process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
