import { auditKeygenCli } from './audit-keygen-cli.js';

// `npm run audit:keygen -- --private FILE --public FILE`
auditKeygenCli(process.argv.slice(2), process.stdout, process.stderr)
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`audit:keygen failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
