import { importCli } from './import-cli.js';

// `npm run import -- --in FILE [--data-dir DIR]`
importCli(process.argv.slice(2), process.env, process.stdout, process.stderr)
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`import failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
