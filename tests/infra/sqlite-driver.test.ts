import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { DRIVER_RELEASE, NODE_MAJOR } from '../../infra/sqlite/driver.js';

const require = createRequire(import.meta.url);
const installed = (name: string): string | null => {
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return null;
  }
};

describe('the SQLite driver build (docs/decisions/0116)', () => {
  it('uses better-sqlite3 13 on Node.js 22 and later when npm installed it, and 12 on Node.js 20', () => {
    const napi = installed('better-sqlite3-napi');
    if (NODE_MAJOR >= 22 && napi) expect(DRIVER_RELEASE).to.equal(napi).and.match(/^13\./);
    else expect(DRIVER_RELEASE).to.match(/^12\./);
    if (NODE_MAJOR < 22) expect(napi, 'npm skips release 13 where its engines exclude this Node.js').to.equal(null);
  });

  it('survives statements collected by the garbage collector (the Node.js 24.19 abort)', function () {
    this.timeout(60_000);
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'tests/support/statement-churn.ts'], { encoding: 'utf8', timeout: 55_000 });
    expect(child.signal, child.stderr).to.equal(null);
    expect(child.status, child.stderr).to.equal(0);
    expect(child.stdout.trim()).to.equal(`ok ${DRIVER_RELEASE}`);
  });
});
