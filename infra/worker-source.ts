import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** tsx's ESM registration module (resolving through `require` finds its CommonJS twin beside it). */
const tsxApi = (): string => pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs')).href;

/**
 * The source of a worker that imports the module `name` beside the module `from` (its
 * `import.meta.url`): built, plain JavaScript; from the TypeScript sources, after registering
 * tsx in the thread, which does not inherit the main thread's loader.
 */
export function workerSource(from: string, name: string): string {
  const ext = extname(new URL(from).pathname);
  const entry = JSON.stringify(new URL(`./${name}${ext}`, from).href);
  return ext === '.ts' ? `import(${JSON.stringify(tsxApi())}).then(({ register }) => { register(); return import(${entry}); })` : `import(${entry})`;
}
