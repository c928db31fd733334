import type { DeliveryDoc } from '../../projections/ports.js';

/** A delivery item: `_sys` always, `data` only where the connection allows reading one resource. */
export function deliveryItem(doc: DeliveryDoc, withData: boolean): Record<string, unknown> {
  const item: Record<string, unknown> = {
    _sys: { key: doc.key, created_at: doc.created_at, updated_at: doc.updated_at, folder: doc.folder },
  };
  if (withData) item.data = doc.data;
  return item;
}
