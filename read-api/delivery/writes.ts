import type { Request, Response } from 'express';
import type { DeliveryCaller } from './auth.js';
import type { DeliveryApi } from './routing.js';
import type { Match } from './scope.js';

/** The delivery write endpoints (write-api/delivery-writes.ts), as the delivery router dispatches POST and PUT to them. */
export type DeliveryWrites = {
  handle(req: Request, res: Response, at: { env: string; api: DeliveryApi; match: Match; caller: DeliveryCaller | null }): Promise<void>;
};
