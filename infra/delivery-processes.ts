import cluster, { type Worker } from 'node:cluster';
import type { Logger } from './logger.js';

/**
 * Several delivery processes on one machine (docs/decisions/0388): node's `cluster` forks `count`
 * processes of ROLE=delivery that share DELIVERY_PORT (the primary hands them connections in
 * turn), each with its own read connection and served-answer cache, which it evicts as the
 * delivery index's checkpoint moves. A process that dies is started again until `stop()`.
 */
export function startDeliveryProcesses(count: number, logger: Logger): { stop(): Promise<void> } {
  let stopping = false;
  const fork = (): Worker => cluster.fork({ ROLE: 'delivery', DELIVERY_PROCESSES: '0' });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logger.warn({ pid: worker.process.pid, code, signal }, 'a delivery process ended: starting another');
    fork();
  });
  for (let i = 0; i < count; i++) fork();
  return {
    async stop() {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) => {
              if (worker.isDead()) return resolve();
              worker.once('exit', () => resolve());
              worker.process.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}

/** In a delivery process of the cluster: ends with its primary (whose pipe closes when it dies). */
export function endWithPrimary(stop: () => Promise<void>): void {
  if (!cluster.isWorker) return;
  process.once('disconnect', () => void stop());
}
