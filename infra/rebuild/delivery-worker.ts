// The delivery index's rebuild in its own thread (infra/rebuild/worker-task.ts, docs/decisions/0141).
import { workerData } from 'node:worker_threads';
import type { Config } from '../config.js';
import { rebuildDeliveryInto } from './delivery-rebuild.js';
import { answer } from './worker-task.js';

const { config, building, scratch } = workerData as { readonly config: Config; readonly building: string; readonly scratch?: string };
await answer(rebuildDeliveryInto(config, building, scratch));
