import cluster from 'node:cluster';
import { argvSettings, loadConfig } from './config.js';
import { endWithPrimary, startDeliveryProcesses } from './delivery-processes.js';
import { createLogger } from './logger.js';
import { startService } from './service.js';
import { startStageTrace } from './observability/stage-trace.js';

/** `npm start`: the service on the embedded stores unless engine URLs are configured. */
async function main(): Promise<void> {
  // A delivery process of the cluster takes its role from the environment its primary gave it, not from the command line.
  const config = loadConfig(cluster.isPrimary ? { ...process.env, ...argvSettings(process.argv.slice(2)) } : process.env);
  startStageTrace();
  const logger = createLogger(config.logLevel);
  const clustered = config.deliveryProcesses > 0;
  const service = await startService(config, logger, { withoutDelivery: clustered });
  const delivery = clustered ? startDeliveryProcesses(config.deliveryProcesses, logger) : null;
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
  logger.info({ role: config.role, management: service.urls.base, delivery: service.urls.delivery, delivery_processes: config.deliveryProcesses, data_dir: config.dataDir }, 'service listening');
  const stop = async (signal: string): Promise<void> => {
    logger.info({ signal }, 'stopping: answering the requests in flight, then committing the projections');
    await delivery?.stop();
    await service.stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  endWithPrimary(() => stop('the primary process ended'));
}

main().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
