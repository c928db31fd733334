// The delivery index's rebuild in its own thread (infra/rebuild/worker-task.ts, docs/decisions/0141).
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.js';
import { rebuildDeliveryInto } from './delivery-rebuild.js';

const { config, building } = workerData as { readonly config: Config; readonly building: string };
parentPort?.postMessage(await rebuildDeliveryInto(config, building));
