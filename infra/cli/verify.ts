import { verifyCli } from './verify-cli.js';

// `npm run verify -- [--data-dir DIR]`
verifyCli(process.argv.slice(2), process.env, process.stdout, process.stderr)
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`verify failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
