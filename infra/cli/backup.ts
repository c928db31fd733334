import { backupCli } from './backup-cli.js';

// `npm run backup -- --out DIR [--data-dir DIR]`
backupCli(process.argv.slice(2), process.env, process.stdout, process.stderr)
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`backup failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
