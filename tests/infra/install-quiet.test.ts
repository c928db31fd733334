import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type Manifest = { name?: string; scripts?: Record<string, string>; allowScripts?: Record<string, boolean>; gypfile?: boolean; dir?: string };

const read = (file: string): Manifest => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

/** Every installed package (scoped ones and nested node_modules too); a binding.gyp is an implicit install script. */
function installed(dir: string, into: Manifest[] = []): Manifest[] {
  if (!existsSync(dir)) return into;
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (entry.startsWith('@')) {
      installed(path, into);
      continue;
    }
    const manifest = join(path, 'package.json');
    if (existsSync(manifest)) into.push({ ...read(manifest), dir: path });
    installed(join(path, 'node_modules'), into);
  }
  return into;
}

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

describe('Install: nothing a user must act on', () => {
  const root = read('package.json');

  it('decides in allowScripts on every installed package with an install script (npm 11 warns about the others and skips them)', () => {
    const withScripts = installed('node_modules').filter(
      (p) => INSTALL_SCRIPTS.some((s) => p.scripts?.[s] !== undefined) || existsSync(join(p.dir ?? '', 'binding.gyp')),
    );
    expect(withScripts.map((p) => p.name)).to.include('better-sqlite3');
    for (const pkg of withScripts) expect(root.allowScripts, `${pkg.name} has an install script`).to.have.property(pkg.name ?? '');
  });

  it('lets the native module build (better-sqlite3 must compile) and keeps optional scripts off', () => {
    expect(root.allowScripts).to.include({ 'better-sqlite3': true });
    expect(root.allowScripts?.['protobufjs']).to.equal(false);
  });

  it('keeps no .npmrc with keys npm does not know, and builds native modules from source without downloading binaries', () => {
    expect(existsSync('.npmrc'), '.npmrc holds only project config npm knows; build-from-source lives in .prebuild-installrc').to.equal(false);
    expect(readFileSync('.prebuild-installrc', 'utf8')).to.match(/^buildFromSource=true$/m);
  });
});
