import type { DeliveryDoc } from '../../../projections/ports.js';
import type { SearchField } from '../../../projections/search-fields.js';

/** The payload as a search result shows it: only the `fields` asked for, localizable values only in `locales`. */
export function shapeData(doc: DeliveryDoc, fields: readonly SearchField[], pick: readonly string[] | null, locales: readonly string[] | null): Record<string, unknown> {
  const data = doc.data ?? {};
  const out: Record<string, unknown> = {};
  const wanted = pick ? new Set(pick.map((name) => name.split('.')[0]!)) : null;
  const localizable = new Set(fields.filter((f) => f.localizable && !f.path.includes('.')).map((f) => f.path));
  for (const [name, value] of Object.entries(data)) {
    if (wanted && !wanted.has(name)) continue;
    if (locales && localizable.has(name) && value && typeof value === 'object' && !Array.isArray(value)) {
      out[name] = Object.fromEntries(Object.entries(value).filter(([locale]) => locales.includes(locale)));
    } else out[name] = value;
  }
  return out;
}
