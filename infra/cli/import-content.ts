import { importContentCli } from './import-content-cli.js';

// `npm run import:content -- --collection KEY_OR_PATH --in FILE.ndjson [--strict]`
importContentCli(process.argv.slice(2), process.env, process.stdout, process.stderr)
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`import failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
