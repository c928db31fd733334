import { replayCli } from './replay-cli.js';

// `npm run replay -- ...`: see REPLAY_USAGE; Ctrl-C ends a --follow.
const stop = new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
replayCli(process.argv.slice(2), process.env, process.stdout, process.stderr, stop)
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`replay failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
