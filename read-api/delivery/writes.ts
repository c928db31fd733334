import type { DeliveryAnswer, DeliveryAsk } from '../../api/delivery-ask.js';
import type { DeliveryCaller } from './auth.js';
import type { DeliveryApi } from './routing.js';
import type { Match } from './scope.js';

/** The delivery write endpoints (write-api/delivery-writes.ts), as the delivery pipeline dispatches POST and PUT to them. */
export type DeliveryWrites = {
  handle(ask: DeliveryAsk, at: { env: string; api: DeliveryApi; match: Match; caller: DeliveryCaller | null }): Promise<DeliveryAnswer>;
};
