import { rebuildCli } from './rebuild-cli.js';

// `npm run rebuild -- [--data-dir DIR]`
rebuildCli(process.argv.slice(2), process.env, process.stdout, process.stderr)
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`rebuild failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
