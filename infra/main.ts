import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startService } from './service.js';
import { startStageTrace } from './observability/stage-trace.js';

/** `npm start`: the service on the embedded stores unless engine URLs are configured. */
async function main(): Promise<void> {
  const config = loadConfig();
  startStageTrace();
  const logger = createLogger(config.logLevel);
  const service = await startService(config, logger);
  if (service.bootstrapCreated && service.bootstrap) {
    process.stdout.write(
      [
        '',
        'First start: created an organization, a project, an environment and an administrator.',
        `Saved to ${config.dataDir}/bootstrap.json (readable only by you). Shown once:`,
        JSON.stringify(service.bootstrap, null, 2),
        '',
      ].join('\n'),
    );
  }
  logger.info({ management: service.urls.base, delivery: service.urls.delivery, data_dir: config.dataDir }, 'service listening');
  const stop = async (signal: string): Promise<void> => {
    logger.info({ signal }, 'stopping: answering the requests in flight, then committing the projections');
    await service.stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
