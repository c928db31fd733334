// `npm start` runs this first (prestart): it compiles the TypeScript sources into dist/ only
// when a source is newer than the last build, so a restart starts from the built output at
// once (docs/decisions/0035); the web console likewise, into dist/console/ (0358). Plain JavaScript, because it runs before anything is built.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What the build reads: every folder tsconfig.build.json includes, and the configs themselves. */
export const SOURCE_DIRS = ['domain', 'commands', 'projections', 'api', 'read-api', 'write-api', 'infra'];
export const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json'];
/** Written after a successful build; its time is the build's time. */
export const STAMP = join('dist', '.build-stamp');

function newestIn(dir, counts = (name) => name.endsWith('.ts')) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestIn(path, counts));
    else if (counts(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether the build in `root` is missing or older than any source or config file. */
export function isStale(root) {
  const stamp = join(root, STAMP);
  // A build from before the service was bundled has a stamp and no bundle.
  if (!existsSync(stamp) || !existsSync(join(root, SERVICE_BUNDLE, 'main.js'))) return true;
  const built = statSync(stamp).mtimeMs;
  const sources = SOURCE_DIRS.map((dir) => join(root, dir)).filter(existsSync).map((dir) => newestIn(dir));
  const configs = CONFIG_FILES.map((file) => join(root, file)).filter(existsSync).map((file) => statSync(file).mtimeMs);
  return Math.max(0, ...sources, ...configs) > built;
}

/**
 * Where `npm run rebuild`'s program and its delivery thread's module are bundled, one file each
 * (docs/decisions/0298): node resolves and loads 50 of the project's modules in the program and 67
 * in its thread otherwise, at every rebuild. The two files sit side by side, as the program starts its thread from the file beside
 * it (infra/rebuild/worker-task.ts).
 */
export const REBUILD_BUNDLE = join('dist', 'infra', 'rebuild-bundle');

/**
 * Bundles the compiled rebuild (dist/) into REBUILD_BUNDLE, with the packages it imports (the
 * progress bar alone is 21 modules). The SQLite driver and the vector extension stay imports:
 * they load native files from their own folders; so do the packages the sources load through
 * `createRequire`, and the event store module the rebuild loads only with EVENTSTORE_URL set,
 * which resolves from the bundle's folder to the compiled one in dist/infra/cli/ (so `outdir` is
 * a folder of dist/infra/). The bundled CommonJS packages require node's own modules through
 * `require`, which an ES module has to make (the banner).
 */
export function bundleRebuild(root, outdir = join(root, REBUILD_BUNDLE)) {
  const esbuild = createRequire(join(root, 'package.json'))('esbuild');
  esbuild.buildSync({
    entryPoints: { rebuild: join(root, 'dist', 'infra', 'cli', 'rebuild.js'), 'delivery-worker': join(root, 'dist', 'infra', 'rebuild', 'delivery-worker.js') },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    external: ['../cli/event-store.js', 'better-sqlite3', 'sqlite-vec'],
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    logLevel: 'error',
  });
}

/**
 * Where `npm start` runs the service from (docs/decisions/0382): the compiled service bundled into
 * one module with the packages every start loads, as the rebuild is (0298). Node otherwise resolves,
 * reads and compiles about 1,000 modules (727 of them CommonJS files of packages) at every start:
 * most of a restart's CPU. The query threads' module is a second entry beside it (the pool starts
 * its threads from the file beside its own module, infra/sqlite/query-pool.ts); the folder is one
 * of dist/infra/, as deep as the modules that find files from their own place (the console's
 * build, dist/console/). Split: what a start does not load (the engines' adapters, the agent
 * endpoint) stays in chunks imported on first use.
 */
export const SERVICE_BUNDLE = join('dist', 'infra', 'service-bundle');

/**
 * Packages the service bundle leaves as imports: the SQLite driver (both releases) and the vector
 * extension load native files, the regular expression engine its WebAssembly file, the thread pool
 * and the logger their threads' scripts, all from their own folders; the engines' clients and the
 * MCP SDK are loaded only with their URL set or on the agent endpoint's first request.
 */
export const SERVICE_EXTERNAL = [
  'better-sqlite3',
  'better-sqlite3-napi',
  'sqlite-vec',
  're2-wasm',
  'piscina',
  'pino',
  '@eventstore/db-client',
  'mongodb',
  '@opensearch-project/opensearch',
  '@modelcontextprotocol/sdk',
];

/** Bundles the compiled service (dist/) into SERVICE_BUNDLE: `main.js`, `query-thread.js` and the chunks they share or load later. */
export function bundleService(root, outdir = join(root, SERVICE_BUNDLE)) {
  const esbuild = createRequire(join(root, 'package.json'))('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  esbuild.buildSync({
    entryPoints: { main: join(root, 'dist', 'infra', 'main.js'), 'query-thread': join(root, 'dist', 'infra', 'sqlite', 'query-thread.js') },
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    // Classes and functions keep their names (error types in logs, names the code compares).
    keepNames: true,
    external: SERVICE_EXTERNAL,
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    logLevel: 'error',
  });
}

/** Node's arguments that compile the project with its own TypeScript. */
export function compilerArgs(root) {
  return [createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')];
}

/** After a successful compile: bundles the rebuild and the service, and stamps the build. */
export function finishBuild(root) {
  bundleRebuild(root);
  bundleService(root);
  writeFileSync(join(root, STAMP), `${new Date().toISOString()}\n`);
}

/** Compiles with the project's own TypeScript, bundles the rebuild and the service, and stamps the build; returns the compiler's exit code. */
export function build(root) {
  const result = spawnSync(process.execPath, compilerArgs(root), { stdio: 'inherit' });
  if (result.status !== 0) return result.status ?? 1;
  finishBuild(root);
  return 0;
}

/** The web console's sources (docs/decisions/0358), built by Vite into CONSOLE_OUT, which the management interface serves at /console/. */
export const CONSOLE_DIR = 'console';
export const CONSOLE_OUT = join('dist', 'console');
export const CONSOLE_STAMP = join(CONSOLE_OUT, '.build-stamp');

/** Whether the console's build is missing or older than any of its files or the package manifests (its dependencies' versions). */
export function isConsoleStale(root) {
  const stamp = join(root, CONSOLE_STAMP);
  if (!existsSync(stamp)) return true;
  const sources = newestIn(join(root, CONSOLE_DIR), () => true);
  const manifests = ['package.json', 'package-lock.json'].map((file) => join(root, file)).filter(existsSync).map((file) => statSync(file).mtimeMs);
  return Math.max(sources, ...manifests) > statSync(stamp).mtimeMs;
}

/** Builds the console with the project's own Vite and its config, then stamps it. */
export async function buildConsole(root) {
  const vite = await import(pathToFileURL(createRequire(join(root, 'package.json')).resolve('vite')).href);
  await vite.build({ configFile: join(root, CONSOLE_DIR, 'vite.config.mjs') });
  writeFileSync(join(root, CONSOLE_STAMP), `${new Date().toISOString()}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
  const force = process.argv.includes('--force');
  if (force || isStale(root)) {
    const status = build(root);
    if (status !== 0) process.exit(status);
  }
  if (force || isConsoleStale(root)) await buildConsole(root);
}
