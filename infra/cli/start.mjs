// `npm start`: one node process that compiles the sources into dist/ when they are newer than the
// last build (build-if-stale.mjs) and then runs the compiled service in this same process, so a
// SIGTERM or Ctrl-C sent to `npm start` reaches the service itself and nothing is left behind
// (docs/decisions/0347). Plain JavaScript, because it runs before anything is built.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildConsole, compilerArgs, finishBuild, isConsoleStale, isStale, SERVICE_BUNDLE } from './build-if-stale.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The compiler as a child that a SIGTERM or SIGINT to this process stops too; resolves to its exit code. */
function compile() {
  const child = spawn(process.execPath, compilerArgs(root), { stdio: 'inherit' });
  const stop = (signal) => {
    child.kill(signal);
    process.exit(130);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return new Promise((done) =>
    child.once('exit', (code) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      done(code ?? 1);
    }),
  );
}

if (isStale(root)) {
  process.stdout.write('the sources are newer than dist/: compiling first\n');
  const code = await compile();
  if (code !== 0) process.exit(code);
  finishBuild(root);
}
// The web console likewise (docs/decisions/0358); without its build tools (an install without dev
// dependencies) the service starts all the same and /console/ answers 503 console_not_built.
if (isConsoleStale(root)) {
  await buildConsole(root).catch((error) => process.stderr.write(`the web console was not built: ${error instanceof Error ? error.message : String(error)}\n`));
}
// The service's bundle (docs/decisions/0382): one module to load instead of about a thousand.
await import(pathToFileURL(resolve(root, SERVICE_BUNDLE, 'main.js')).href);
