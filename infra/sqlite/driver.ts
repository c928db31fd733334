import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/** The Node.js major version this process runs on. */
export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/**
 * The better-sqlite3 build for this Node.js (docs/decisions/0116): release 13 (Node-API,
 * prebuilt binaries inside the package) on Node 22 and later, where release 12's
 * `node::ObjectWrap` statements abort the process when collected (Node 24.19 and later);
 * release 12, compiled from source at install, on Node 20, which release 13 does not support.
 * npm installs release 13 as an optional dependency only where its engines allow it.
 */
function load(): { readonly Database: typeof BetterSqlite3; readonly release: string; readonly path: string } {
  const name = NODE_MAJOR >= 22 && installed('better-sqlite3-napi') ? 'better-sqlite3-napi' : 'better-sqlite3';
  return {
    Database: require(name) as typeof BetterSqlite3,
    release: (require(`${name}/package.json`) as { version: string }).version,
    path: require.resolve(name),
  };
}

/** Whether npm installed the package (release 13 is skipped where its engines exclude this Node.js). */
function installed(name: string): boolean {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

const driver = load();

/** The better-sqlite3 `Database` class of the chosen build. */
export const Database = driver.Database;
/** The version of the chosen build, for logs and tests. */
export const DRIVER_RELEASE = driver.release;
/** The chosen build's entry file, for a worker thread that loads the same build. */
export const DRIVER_PATH = driver.path;
export type SqliteDatabase = BetterSqlite3.Database;
export type { Statement } from 'better-sqlite3';
