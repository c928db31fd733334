import { exportCli } from './export-cli.js';

// `npm run export -- --out FILE [--data-dir DIR]`
exportCli(process.argv.slice(2), process.env, process.stdout, process.stderr)
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`export failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
