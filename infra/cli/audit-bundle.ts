import { auditBundleCli } from './audit-bundle-cli.js';

// `npm run audit:bundle -- --out FILE --public-key FILE [--data-dir DIR]`
auditBundleCli(process.argv.slice(2), process.env, process.stdout, process.stderr)
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`audit:bundle failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
